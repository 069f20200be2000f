"""The plan: what the templates place, every decision already made.

Fields typed `Source` (names ending in `_source`) hold Python source ready to be
placed as is (a string literal, an annotation, a complete docstring, a laid-out
argument), made by `waitable_codegen.literals`; fields typed `Identifier` hold
names made by `naming.identifier`. Those two types are all a template may place
(the renderer refuses anything else); a plain `str` field is data for the
generator itself (a shape id, a name for messages) and never reaches a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..literals import Source
from ..naming import Identifier
from .runtime_check import runtime_check


@dataclass(frozen=True)
class FieldPlan:
    """One member of a TypedDict: its key, its annotation, whether it is required,
    and its whole line (`name: type` in a class, `"key": type,` in the functional
    form), laid out."""

    name: str
    key_source: Source
    annotation_source: Source
    required: bool
    line_source: Source


@dataclass(frozen=True)
class TypedDictPlan:
    """One TypedDict for a structure or union (or an operation with no input/output).

    `functional` is set when a member name cannot be a class-body name (a keyword,
    not an identifier, or a name the module uses), so the `TypedDict("X", {...})`
    form is used.
    """

    class_name: Identifier
    shape_id: str | None
    header_source: Source
    docstring_source: Source
    fields: tuple[FieldPlan, ...]
    functional: bool


@dataclass(frozen=True)
class SearchFunctionPlan:
    """A compiled JMESPath expression: one module-level function."""

    name: Identifier
    expression: str
    source: Source


@dataclass(frozen=True)
class MatcherPlan:
    """A matcher as constructor source: `OutputMatcher(...)`, `SuccessMatcher(...)`, ..."""

    kind: str  # "output", "inputOutput", "success" or "errorType"
    class_name: Identifier  # the runtime's matcher class
    path_source: Source | None = None
    expected_source: Source | None = None
    comparator: Identifier | None = None  # a `Comparator` member name
    search: Identifier | None = None  # the compiled function's name
    success_source: Source | None = None  # `True` or `False`
    error_type_source: Source | None = None
    botocore_source: Source | None = None  # kind "botocore": the whole constructor


@dataclass(frozen=True)
class AcceptorPlan:
    """An acceptor: the state (an `AcceptorState` member name), matcher and message."""

    state: Identifier
    matcher: MatcherPlan
    message_source: Source | None
    message_search: Identifier | None


@dataclass(frozen=True)
class ModeledErrorPlan:
    """An error the operation declares, with its `@httpError` status if any."""

    name_source: Source
    http_status: int | None


@dataclass(frozen=True)
class WaiterPlan:
    """One waiter: its two classes, its definition and the types it is checked with."""

    name: str
    operation_id: str
    class_name: Identifier
    async_class_name: Identifier
    definition_name: Identifier
    name_source: Source
    operation_source: Source
    operation_method_source: Source
    input_type: Identifier
    output_type: Identifier
    class_header_source: Source
    async_class_header_source: Source
    definition_attribute_source: Source  # the classes' `definition: ...` line
    tags_attribute_source: Source  # the classes' `tags: ...` line
    min_delay: int
    max_delay: int
    min_delay_source: Source
    max_delay_source: Source
    documentation_source: Source | None
    docstring_source: Source
    async_docstring_source: Source
    deprecated: bool
    tags_source: Source | None  # the `tags=(...)` argument, laid out
    acceptors: tuple[AcceptorPlan, ...]
    errors: tuple[ModeledErrorPlan, ...]
    errors_source: Source | None  # the `errors=(...)` argument, laid out
    botocore_max_attempts_source: Source | None = None  # botocore input only
    # the `plain_reads=(...)` argument: read positions the output shape keeps plain
    plain_reads_source: Source | None = None


@dataclass(frozen=True)
class PackagePlan:
    """One generated package (the output directory, or one service's subpackage)."""

    path: tuple[Identifier, ...]
    header_lines: tuple[Source, ...]  # names only the models its waiters come from
    init_docstring_source: Source
    shapes_docstring_source: Source
    waiters_docstring_source: Source
    service_id: str | None
    waiters: tuple[WaiterPlan, ...]
    typed_dicts: tuple[TypedDictPlan, ...]
    functions: tuple[SearchFunctionPlan, ...]
    needs_datetime: bool
    needs_decimal: bool
    botocore: bool = False  # waiters from botocore data (`waitable.botocore_waiters`)

    @property
    def class_names(self) -> tuple[Identifier, ...]:
        """Every waiter class the package exports, sorted."""
        names = [w.class_name for w in self.waiters]
        names += [w.async_class_name for w in self.waiters]
        return tuple(sorted(names))


@dataclass(frozen=True)
class GenerationPlan:
    """Everything to write: the packages, and the root package of a multi-service model."""

    header_lines: tuple[Source, ...]  # for the root files: every package's models
    packages: tuple[PackagePlan, ...]
    root_docstring_source: Source | None = None  # set when services get subpackages
    # what every generated __init__.py runs first: the installed runtime is new enough
    runtime_check_source: Source = field(default_factory=runtime_check)
    # operations with waiters that no generated service binds (left out, reported)
    left_out: tuple[str, ...] = ()

    @property
    def waiter_count(self) -> int:
        """How many waiters (each one sync and one async class) the plan holds."""
        return sum(len(package.waiters) for package in self.packages)
