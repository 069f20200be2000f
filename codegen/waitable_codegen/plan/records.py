"""The plan: what the templates place, every decision already made.

Strings ending in `_source` hold Python source ready to be placed as is (a string
literal, an annotation, a complete docstring, a laid-out argument); every other
string is plain data (or a name already made safe).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldPlan:
    """One member of a TypedDict: its key, its annotation, whether it is required,
    and its whole line (`name: type` in a class, `"key": type,` in the functional
    form), laid out."""

    name: str
    key_source: str
    annotation_source: str
    required: bool
    line_source: str


@dataclass(frozen=True)
class TypedDictPlan:
    """One TypedDict for a structure or union (or an operation with no input/output).

    `functional` is set when a member name cannot be a class-body name (a keyword,
    not an identifier, or a name the module uses), so the `TypedDict("X", {...})`
    form is used.
    """

    class_name: str
    shape_id: str | None
    header_source: str
    docstring_source: str
    fields: tuple[FieldPlan, ...]
    functional: bool


@dataclass(frozen=True)
class SearchFunctionPlan:
    """A compiled JMESPath expression: one module-level function."""

    name: str
    expression: str
    source: str


@dataclass(frozen=True)
class MatcherPlan:
    """A matcher as constructor source: `OutputMatcher(...)`, `SuccessMatcher(...)`, ..."""

    kind: str  # "output", "inputOutput", "success" or "errorType"
    path_source: str | None = None
    expected_source: str | None = None
    comparator: str | None = None  # a `Comparator` member name
    search: str | None = None  # the compiled function's name
    success: bool | None = None
    error_type_source: str | None = None


@dataclass(frozen=True)
class AcceptorPlan:
    """An acceptor: the state (an `AcceptorState` member name), matcher and message."""

    state: str
    matcher: MatcherPlan
    message_source: str | None
    message_search: str | None


@dataclass(frozen=True)
class ModeledErrorPlan:
    """An error the operation declares, with its `@httpError` status if any."""

    name_source: str
    http_status: int | None


@dataclass(frozen=True)
class WaiterPlan:
    """One waiter: its two classes, its definition and the types it is checked with."""

    name: str
    operation_id: str
    class_name: str
    async_class_name: str
    definition_name: str
    name_source: str
    operation_source: str
    operation_method_source: str
    input_type: str
    output_type: str
    class_header_source: str
    async_class_header_source: str
    min_delay: int
    max_delay: int
    documentation_source: str | None
    docstring_source: str
    async_docstring_source: str
    deprecated: bool
    tags_source: str | None  # the `tags=(...)` argument, laid out
    acceptors: tuple[AcceptorPlan, ...]
    errors: tuple[ModeledErrorPlan, ...]
    errors_source: str | None  # the `errors=(...)` argument, laid out


@dataclass(frozen=True)
class PackagePlan:
    """One generated package (the output directory, or one service's subpackage)."""

    path: tuple[str, ...]
    init_docstring_source: str
    shapes_docstring_source: str
    waiters_docstring_source: str
    service_id: str | None
    waiters: tuple[WaiterPlan, ...]
    typed_dicts: tuple[TypedDictPlan, ...]
    functions: tuple[SearchFunctionPlan, ...]
    needs_datetime: bool
    needs_decimal: bool

    @property
    def class_names(self) -> tuple[str, ...]:
        """Every waiter class the package exports, sorted."""
        names = [w.class_name for w in self.waiters]
        names += [w.async_class_name for w in self.waiters]
        return tuple(sorted(names))


@dataclass(frozen=True)
class GenerationPlan:
    """Everything to write: the packages, and the root package of a multi-service model."""

    header_lines: tuple[str, ...]
    packages: tuple[PackagePlan, ...]
    root_docstring_source: str | None = None  # set when services get subpackages

    @property
    def waiter_count(self) -> int:
        """How many waiters (each one sync and one async class) the plan holds."""
        return sum(len(package.waiters) for package in self.packages)
