"""The one error the model loader raises: a sentence naming the file and the shape."""


class ModelError(Exception):
    """A model file cannot be read as a Smithy JSON AST model; str() says where and why."""
