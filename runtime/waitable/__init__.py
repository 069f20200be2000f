"""waitable: the runtime that generated Smithy waiters delegate to."""
