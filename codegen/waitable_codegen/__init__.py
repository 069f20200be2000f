"""waitable_codegen: generate typed waiter classes from Smithy models."""
