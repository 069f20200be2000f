"""The `smithy.api` prelude shapes that models refer to without defining them."""

from __future__ import annotations

from .shapes import Shape

PRELUDE_SOURCE = "<prelude>"

_SIMPLE = {
    "String": "string",
    "Blob": "blob",
    "BigInteger": "bigInteger",
    "BigDecimal": "bigDecimal",
    "Timestamp": "timestamp",
    "Document": "document",
    "Boolean": "boolean",
    "Byte": "byte",
    "Short": "short",
    "Integer": "integer",
    "Long": "long",
    "Float": "float",
    "Double": "double",
}
_PRIMITIVE = {
    "PrimitiveBoolean": ("boolean", False),
    "PrimitiveByte": ("byte", 0),
    "PrimitiveShort": ("short", 0),
    "PrimitiveInteger": ("integer", 0),
    "PrimitiveLong": ("long", 0),
    "PrimitiveFloat": ("float", 0),
    "PrimitiveDouble": ("double", 0),
}


def prelude_shapes() -> dict[str, Shape]:
    """Fresh copies of the prelude's simple shapes and `smithy.api#Unit`."""
    shapes: dict[str, Shape] = {}
    for name, kind in _SIMPLE.items():
        shape_id = f"smithy.api#{name}"
        shapes[shape_id] = Shape(shape_id, kind, PRELUDE_SOURCE)
    for name, (kind, default) in _PRIMITIVE.items():
        shape_id = f"smithy.api#{name}"
        shapes[shape_id] = Shape(
            shape_id, kind, PRELUDE_SOURCE, traits={"smithy.api#default": default}
        )
    shapes["smithy.api#Unit"] = Shape(
        "smithy.api#Unit",
        "structure",
        PRELUDE_SOURCE,
        traits={"smithy.api#unitType": {}},
    )
    return shapes
