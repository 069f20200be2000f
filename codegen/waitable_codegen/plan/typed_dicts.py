"""TypedDicts for the inputs and outputs of the waited-on operations.

Every structure and union an input or output reaches becomes one TypedDict:
required members (`@required`, unless also `@clientOptional`, or an
`@idempotencyToken` of a structure an input reaches, which clients fill in when
it is left out; a service returns an output's) are required keys, the rest
`NotRequired`. Names come from the shape names, with the service's `rename`
first and collisions across namespaces resolved deterministically.

A timestamp in a structure an input reaches is `datetime | str`: boto3 and
aiobotocore take ISO 8601 text as well as a datetime, and a wait saved as JSON
(`start()`, `poll_once()`, Celery) must be given the text, since JSON holds no
datetime. Elsewhere (outputs) a timestamp is the `datetime` clients return; a
structure that both reach is typed as an input, which takes more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..literals import Source, compose, docstring_literal, string_literal
from ..model import Model, Shape
from ..naming import (
    RESERVED_NAMES,
    Identifier,
    identifier,
    is_identifier,
    pascal_identifier,
    unique_name,
)
from ..widths import may_fit
from .layout import Expression, class_header, plain, subscript, subscript_line
from .records import FieldPlan, TypedDictPlan

_SCALARS: dict[str, Source] = {
    "string": compose("str"),
    "enum": compose("str"),
    "boolean": compose("bool"),
    "byte": compose("int"),
    "short": compose("int"),
    "integer": compose("int"),
    "long": compose("int"),
    "bigInteger": compose("int"),
    "intEnum": compose("int"),
    "float": compose("float"),
    "double": compose("float"),
    "bigDecimal": compose("_decimal.Decimal"),
    "blob": compose("bytes"),
    "timestamp": compose("_datetime.datetime"),
    "document": compose("_t.Any"),
}
_INPUT_TIMESTAMP = compose("_datetime.datetime | str")
_CONTAINERS = frozenset({"structure", "union"})
_TYPED_DICT = compose("_t.TypedDict")
_NOT_REQUIRED = compose("_t.NotRequired")
_REQUIRED = "smithy.api#required"
_OPTIONAL = "smithy.api#clientOptional"
_TOKEN = "smithy.api#idempotencyToken"


@dataclass
class TypedDictSet:
    """The TypedDicts of one package, and what the module must import for them."""

    names: dict[str, Identifier] = field(default_factory=dict)  # id → class name
    plans: list[TypedDictPlan] = field(default_factory=list)
    needs_datetime: bool = False
    needs_decimal: bool = False

    def sorted_plans(self) -> tuple[TypedDictPlan, ...]:
        """The TypedDicts in class-name order (the order the module defines them)."""
        return tuple(sorted(self.plans, key=lambda plan: plan.class_name))


class TypedDictPlanner:
    """Plans the TypedDicts reachable from a package's operation inputs and outputs."""

    def __init__(
        self, model: Model, namespace: str | None, rename: Mapping[str, str]
    ) -> None:
        self.model = model
        self.namespace = namespace
        self.rename = rename
        self.result = TypedDictSet()
        self._names_taken = set(RESERVED_NAMES)
        # Many members share a target, and many share a name and a type: each
        # annotation and each field line is made once per package.
        self._annotations: dict[str, Expression] = {}
        # The same for the structures an input reaches, whose timestamps take text.
        self._input_annotations: dict[str, Expression] = {}
        self._input_shapes: set[str] = set()
        self._fields: dict[tuple[str, Expression, bool, bool], FieldPlan] = {}
        self._optional: dict[Source, Expression] = {}
        # The annotations that name a TypedDict of the module: written as strings,
        # since the module evaluates its annotations when it defines each class
        # (so that `__required_keys__` sees `NotRequired`), and a class may come later.
        self._naming_classes: set[Source] = set()

    def plan(
        self,
        roots: Iterable[str],
        synthetic: Iterable[tuple[str, Identifier]],
        inputs: Iterable[str] = (),
    ) -> TypedDictSet:
        """Plan the TypedDicts for `roots` (structure ids) and the empty `synthetic`
        ones (key, wanted class name) that stand in for a missing input or output.
        `inputs` are the roots that are operation inputs (see the module docstring)."""
        shape_ids = self._reachable(roots)
        self._input_shapes = set(self._reachable(inputs))
        self._name_shapes(shape_ids)
        for key, wanted in synthetic:
            name = unique_name(wanted, self._taken())
            self._name(key, name)
        for shape_id in shape_ids:
            self.result.plans.append(self._plan_shape(shape_id))
        for key, _ in synthetic:
            name = self.result.names[key]
            operation = key.partition(" ")[2]
            doc = f"The {key.partition(' ')[0]} of `{operation}`, which has none."
            self.result.plans.append(
                TypedDictPlan(
                    name,
                    None,
                    class_header(name, _TYPED_DICT),
                    docstring_literal(doc, 4),
                    (),
                    False,
                )
            )
        return self.result

    def _taken(self) -> set[str]:
        """The class names given so far and the reserved ones (kept as they are
        given: recomputing it per shape made naming quadratic)."""
        return self._names_taken

    def _name(self, key: str, name: Identifier) -> None:
        self.result.names[key] = name
        self._names_taken.add(name)

    def _reachable(self, roots: Iterable[str]) -> list[str]:
        found: list[str] = []
        seen: set[str] = set()
        pending = sorted(set(roots), reverse=True)
        while pending:
            shape_id = pending.pop()
            if shape_id in seen:
                continue
            seen.add(shape_id)
            shape = self.model[shape_id]
            if shape.type in _CONTAINERS:
                found.append(shape_id)
            elif shape.type not in ("list", "map"):
                continue  # enum members target smithy.api#Unit: nothing to type
            for member in reversed(shape.members.values()):
                if member.target not in seen:
                    pending.append(member.target)
        return found

    def _name_shapes(self, shape_ids: list[str]) -> None:
        # The service's own namespace names first, then the rest by shape id, so a
        # clash is always resolved against the same shape.
        def order(shape_id: str) -> tuple[int, str]:
            shape = self.model[shape_id]
            return (0 if shape.namespace == self.namespace else 1, shape_id)

        for shape_id in sorted(shape_ids, key=order):
            shape = self.model[shape_id]
            wanted = pascal_identifier(
                self.rename.get(shape_id, shape.name).lstrip("_")
            )
            taken = self._taken()
            if wanted in taken and shape.namespace != self.namespace:
                segment = shape.namespace.split(".")[-1]
                prefix = pascal_identifier(segment[:1].upper() + segment[1:])
                wanted = pascal_identifier(f"{prefix}{wanted}")
            self._name(shape_id, unique_name(wanted, taken))

    def _plan_shape(self, shape_id: str) -> TypedDictPlan:
        shape = self.model[shape_id]
        union = shape.type == "union"
        member_names = list(shape.members)
        # A class body would mangle `__x` (and `_t`, `_datetime` would hide the
        # module's own imports from mypy): such shapes, and those with keyword or
        # non-identifier member names, use the functional form, whose keys are only
        # strings. Members named like a class or a builtin are fine in a class body.
        functional = any(
            not is_identifier(name) or name.startswith("_") for name in member_names
        )
        fields = []
        as_input = shape_id in self._input_shapes
        shapes, annotations, planned_fields = (
            self.model.shapes,
            self._input_annotations if as_input else self._annotations,
            self._fields,
        )
        for member in shape.members.values():  # the hot loop: lookups inlined
            traits = member.traits
            annotation = annotations.get(member.target)
            if annotation is None:  # not planned yet, or a blob (never kept)
                annotation = self._annotation(shapes[member.target], traits, as_input)
            required = (
                not union
                and _REQUIRED in traits
                and _OPTIONAL not in traits
                and not (as_input and _TOKEN in traits)
            )
            wanted = (member.name, annotation, required, functional)
            planned = planned_fields.get(wanted)
            if planned is None:
                planned = planned_fields[wanted] = self._plan_field(*wanted)
            fields.append(planned)
        kind = "union (set exactly one key)" if union else "structure"
        doc = f"The {kind} `{shape_id}`."
        name = self.result.names[shape_id]
        return TypedDictPlan(
            name,
            shape_id,
            class_header(name, _TYPED_DICT),
            docstring_literal(doc, 4),
            tuple(fields),
            functional,
        )

    def _annotation(
        self, shape: Shape, traits: Mapping[str, object], as_input: bool = False
    ) -> Expression:
        """The annotation of a member targeting `shape`; `as_input` for a member of
        a structure an input reaches."""
        if shape.type == "blob":  # streaming may come from the member's traits
            return self._new_annotation(shape, traits, as_input)
        cache = self._input_annotations if as_input else self._annotations
        known = cache.get(shape.id)
        if known is None:
            known = cache[shape.id] = self._new_annotation(shape, traits, as_input)
        return known

    def _new_annotation(
        self, shape: Shape, traits: Mapping[str, object], as_input: bool
    ) -> Expression:
        naming = self._naming_classes
        if shape.type in _CONTAINERS:
            made = plain(compose("{}", self.result.names[shape.id]))
            naming.add(made.text)
            return made
        if shape.type == "list":
            member = self.model.target(shape.members["member"])
            item = self._annotation(member, {}, as_input)
            text = item.text
            if "smithy.api#sparse" in shape.traits:
                text = compose("{} | None", text)
            made = subscript(compose("list"), text)
            if item.text in naming:
                naming.add(made.text)
            return made
        if shape.type == "map":
            key = self._annotation(self.model.target(shape.members["key"]), {})
            value = self._annotation(
                self.model.target(shape.members["value"]), {}, as_input
            )
            text = value.text
            if "smithy.api#sparse" in shape.traits:
                text = compose("{} | None", text)
            made = subscript(compose("dict"), compose("{}, {}", key.text, text))
            if value.text in naming or key.text in naming:
                naming.add(made.text)
            return made
        if shape.type == "blob" and (
            "smithy.api#streaming" in shape.traits or "smithy.api#streaming" in traits
        ):
            return plain(_SCALARS["document"])
        scalar = _SCALARS.get(shape.type, _SCALARS["document"])
        if as_input and shape.type == "timestamp":
            scalar = _INPUT_TIMESTAMP
        if scalar.startswith("_datetime"):
            self.result.needs_datetime = True
        elif scalar.startswith("_decimal"):
            self.result.needs_decimal = True
        return plain(scalar)

    def _plan_field(
        self, name: str, annotation: Expression, required: bool, functional: bool
    ) -> FieldPlan:
        """One key of a TypedDict: its line in a class body, or in the functional
        form (`"key": type,`) when `functional`."""
        key = string_literal(name)
        if functional or annotation.text in self._naming_classes:
            annotation = plain(string_literal(annotation.text))
        full = annotation if required else self._not_required(annotation.text)
        # The line `subscript_line` makes when it fits, made directly (nearly every
        # field's): the same text, without composing the prefix and the line apart.
        if functional:
            line = compose("        {}: {},", key, full.text)
            if not may_fit(line):
                line = subscript_line(compose("{}: ", key), full, 8, compose(","))
        else:
            name_source = identifier(name)
            line = compose("    {}: {}", name_source, full.text)
            if not may_fit(line):
                prefix = compose("{}: ", name_source)
                line = subscript_line(prefix, full, 4, parenthesize=True)
        return FieldPlan(name, key, annotation.text, required, line)

    def _not_required(self, annotation: Source) -> Expression:
        """`_t.NotRequired[annotation]`, made once per annotation: most members
        are optional, and a package's members share a few annotations."""
        known = self._optional.get(annotation)
        if known is None:
            known = self._optional[annotation] = subscript(_NOT_REQUIRED, annotation)
        return known
