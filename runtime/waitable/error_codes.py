"""Turn an exception raised by a client into the error code `errorType` compares with.

Policy, in order:

1. A botocore-style service error: `exc.response["Error"]["Code"]` (duck-typed;
   botocore is never imported here). When that code is empty, the response's HTTP
   status (400 or above) as a bare status code (below), which is what botocore
   itself reports for a response that names no code; botocore's `Stubber` leaves
   the code empty (`add_client_error(op, http_status_code=404)`).
2. A smithy-python modeled error (its class hierarchy holds smithy-core's
   `ModeledError`): its class name, which is the error shape's name. Its attributes
   are the shape's members, so a member called `code` holds data, not the code
   (Glacier's `ResourceNotFoundException`, Schemas' `NotFoundException`).
3. The HTTP status, 400 or above, of the response a plain HTTP client's error
   carries (urllib's and requests' `HTTPError`, httpx's `HTTPStatusError`,
   aiohttp's `ClientResponseError`), as a bare status code (below).
4. A `code` or `error_code` string attribute (the adapter's
   `SmithyPythonUnmodeledError`, hand-written errors).
5. The exception's class name.

Only the name part of a shape id counts (`com.amazonaws.s3#NotFound` → `NotFound`).
An `errorType` also matches the shape name of botocore's modeled error class when
its wire code differs (`modeled_class_name`: awsQuery errors).
A code that is a bare HTTP status (botocore reports `"404"` when a HEAD response
has no body) is resolved through the operation's modeled errors: the one whose
`http_status` equals it gives its name. When several errors have that status the
response cannot tell which one it was, and none is picked (their order in the
model would decide). A bare `"404"` that not exactly one modeled error claims
reads as `NotFound`, as the AWS SDK for Rust does.

Transport failures are not service errors and are never shown to acceptors:
`OSError` (so `ConnectionError` and `TimeoutError`, which is also
`asyncio.TimeoutError`) but for the HTTP clients' error responses above, which
are `OSError`s in urllib and requests yet carry the service's answer; aiohttp's
`ClientConnectionError` and `ClientPayloadError` and httpx's `TransportError`
(not `OSError`s); botocore's `ConnectionError`, `HTTPClientError` and
`IncompleteReadError` families (its other `BotoCoreError`s, such as
`ParamValidationError` or `NoCredentialsError`, reach the acceptors, which match
none of them: the wait fails saying to check the input); and awscrt's
`AwsCrtError` when it names a network failure (`waitable.crt_errors`). They fail the waiter with
`WaiterOperationError` (the cause chained) unless the caller lists their type in
`retry_on=`, which makes such an attempt a retry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .class_names import class_package
from .crt_errors import crt_network_failure
from .definition import ModeledError

__all__ = [
    "error_code",
    "is_transport_error",
    "modeled_class_name",
    "response_status",
    "shape_name",
]


def shape_name(shape_id: str) -> str:
    """The name part of an absolute shape id; a relative name is returned unchanged."""
    return shape_id.rpartition("#")[2]


def _raw_code(exc: BaseException) -> str:
    code = _botocore_code(exc)
    if code is not None:
        return code
    bare = _botocore_bare_status(exc)
    if bare is not None:
        return str(bare)
    if _is_smithy_modeled(type(exc)):
        return type(exc).__name__
    status = _client_response_status(exc)
    if status is not None:  # its `code`, if any, is the status (aiohttp: deprecated)
        return str(status) if status >= 400 else type(exc).__name__
    for attribute in ("code", "error_code"):
        code = _text_attribute(exc, attribute)
        if code is not None:
            return code
    return type(exc).__name__


def _botocore_code(exc: BaseException) -> str | None:
    """`exc.response["Error"]["Code"]` when it is non-empty text, else None."""
    code = _response_part(exc, "Error", "Code")
    # a str subclass's own text is not read
    return str.__str__(code) if isinstance(code, str) and code else None


def _botocore_bare_status(exc: BaseException) -> int | None:
    """The HTTP status (400-599) of a botocore-style error (its `response` has an
    `Error` section) whose `Error.Code` gave no code; None for any other error."""
    status = _response_part(exc, "ResponseMetadata", "HTTPStatusCode")
    if type(status) is int and 400 <= status <= 599 and _has_error_section(exc):
        return status
    return None


def _has_error_section(exc: BaseException) -> bool:
    """Whether `exc.response["Error"]` is a mapping (a botocore-style error)."""
    try:
        response = getattr(exc, "response", None)
        return isinstance(response, Mapping) and isinstance(
            response.get("Error"), Mapping
        )
    except Exception:  # a client's attribute that raises: not one to read
        return False


def _response_part(exc: BaseException, section: str, key: str) -> object:
    """`exc.response[section][key]` (botocore's error response); None when it is
    missing, or when reading it raises (the error is the client's, not trusted)."""
    try:
        response = getattr(exc, "response", None)
        if isinstance(response, Mapping):
            part = response.get(section)
            if isinstance(part, Mapping):
                return part.get(key)
    except Exception:  # a client's attribute that raises: nothing to read
        return None
    return None


def _text_attribute(exc: BaseException, name: str) -> str | None:
    """The attribute `name` of `exc` when it is non-empty text; None when it is
    missing, not text, or reading it raises."""
    try:
        value = getattr(exc, name, None)
    except Exception:
        return None
    return str.__str__(value) if isinstance(value, str) and value else None


#: Plain HTTP clients' errors for a response they received, by (top-level package,
#: class name), and the attributes that lead to its status (subclasses included).
_CLIENT_RESPONSE_ERRORS: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("urllib", "HTTPError"): ("code",),
    ("requests", "HTTPError"): ("response", "status_code"),
    ("httpx", "HTTPStatusError"): ("response", "status_code"),
    ("aiohttp", "ClientResponseError"): ("status",),
}


def _client_response_status(exc: BaseException) -> int | None:
    """The HTTP status (100-599) of the response a plain HTTP client's error
    carries (`_CLIENT_RESPONSE_ERRORS`); None for any other error, or one whose
    status cannot be read."""
    try:
        for klass in type(exc).__mro__:
            path = _CLIENT_RESPONSE_ERRORS.get(
                (class_package(klass) or "", klass.__name__)
            )
            if path is None:
                continue
            value: object = exc
            for name in path:
                value = getattr(value, name, None)
            if type(value) is int and 100 <= value <= 599:
                return value
            return None
    except Exception:  # a client's attribute that raises: no status to read
        return None
    return None


def response_status(exc: BaseException) -> int | None:
    """The HTTP status of the response an error carries: botocore's
    `response["ResponseMetadata"]["HTTPStatusCode"]`, or a plain HTTP client's
    (`_CLIENT_RESPONSE_ERRORS`); None when it carries none."""
    status = _response_part(exc, "ResponseMetadata", "HTTPStatusCode")
    return status if type(status) is int else _client_response_status(exc)


def _is_smithy_modeled(cls: type) -> bool:
    """Whether smithy-core's `ModeledError` is among `cls`'s bases (duck-typed: the
    runtime never imports smithy-core)."""
    return any(
        base.__name__ == "ModeledError" and class_package(base) == "smithy_core"
        for base in cls.__mro__
    )


def modeled_class_name(exc: BaseException) -> str | None:
    """The error shape's name when `exc` is one of botocore's modeled error classes
    (a subclass of its `ClientError`, which botocore names after the shape), else
    None. Its `Error.Code` is the wire code, which an awsQuery error's
    `@awsQueryError` makes differ from the shape's name (IAM's `NoSuchEntity` for
    `NoSuchEntityException`): an `errorType` may name either."""
    try:
        klass = type(exc)
        for base in klass.__mro__[1:]:
            if base.__name__ == "ClientError" and class_package(base) == "botocore":
                return klass.__name__
    except Exception:  # a class whose attributes raise: no name to read
        return None
    return None


def error_code(exc: BaseException, modeled: Iterable[ModeledError] = ()) -> str:
    """The error code of `exc`, resolved as the module docstring describes."""
    code = shape_name(_raw_code(exc))
    if code.isascii() and code.isdigit():
        status = int(code)
        claimed = {shape_name(e.name) for e in modeled if e.http_status == status}
        if len(claimed) == 1:
            return claimed.pop()
        if status == 404:
            return "NotFound"
    return code


#: HTTP clients' transport failures that are not `OSError`s, by (top-level package,
#: class name), subclasses included: botocore's connection and HTTP client errors
#: (not its other `BotoCoreError`s: a bad parameter or missing credentials is no
#: transport failure, and retrying it cannot help), a connection aiohttp lost or a
#: body it got cut short, any of httpx's.
_TRANSPORT_CLASSES = frozenset(
    {
        ("botocore", "ConnectionError"),
        ("botocore", "HTTPClientError"),
        ("botocore", "IncompleteReadError"),
        ("aiohttp", "ClientConnectionError"),
        ("aiohttp", "ClientPayloadError"),
        ("httpx", "TransportError"),
    }
)


def is_transport_error(exc: BaseException) -> bool:
    """True for failures to reach the service at all, which acceptors never see
    (an HTTP client's error for a response it received is the service's answer)."""
    if issubclass(type(exc), OSError):  # its class, not what its `__class__` says
        return _client_response_status(exc) is None
    if any(
        (class_package(cls) or "", cls.__name__) in _TRANSPORT_CLASSES
        for cls in type(exc).__mro__
    ):
        return True
    return crt_network_failure(exc) is not None
