"""An SDK whose waiters are generated at build time (`my_sdk.waiters`)."""
