"""urllib's `URLError` carries the socket error in `reason`, not as `__cause__`:
the retry policy reads it there, as it reads urllib3's `MaxRetryError.reason`."""

from __future__ import annotations

import urllib.error


from waitable.error_codes import is_transport_error
from waitable.retry import StandardRetryPolicy
from waitable.retry.directives import RetryError, RetryErrorType


def test_urllib_connection_refused_is_retried_like_the_socket_error() -> None:
    # What urllib.request.urlopen raises when nothing listens on the port.
    error = urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))
    assert is_transport_error(error)
    assert StandardRetryPolicy().evaluate_error(error) == RetryError(
        RetryErrorType.SERVER_SIDE
    )
