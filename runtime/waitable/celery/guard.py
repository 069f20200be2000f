"""The per-wait record in Redis that keeps a wait's poll chain single and `on_done` once.

Celery with a Redis broker delivers a message again after a worker dies
(`acks_late`); a redelivered poll is harmless, but it must not fork the wait
into two chains, nor run `on_done` twice. One hash per wait holds the last
poll whose successor was published (`seq`), that successor's message (`next`),
a lease on the poll now running (`owner`, `until`, renewed while its call runs:
a copy meanwhile does not run it again; `running`, that poll's number, so its
successor is told apart from a copy), the start that made it (`started`: a
second `start_wait` with the same id is refused), a cancel request (`cancel`:
the next poll to begin ends the wait instead), and the end (`done`:
`sending` then `sent`, with the `outcome`, kept until the record expires `keep`
seconds later so that `wait_outcome` can read it back). Publishing the `waitable.done`
message is at-least-once; its consumer makes the call once: a lease on the
call (`runner`, `runner_until`, renewed while it runs) and, after it,
`delivered` (`ran`, or `failed` when its retries ran out). Every
check-and-set is one Lua script, so two workers never both win.

A message can still vanish: kombu's Redis transport takes it off the queue
(BRPOP) before it records it as unacknowledged, so a worker killed between the
two loses it. A sorted set (`<prefix>due`) holds each pending wait by the time
its next poll (or its undelivered `waitable.done`) should have begun; `sweep`
hands back the overdue ones' messages to publish again (a second copy is
harmless: the record drops it), also a wait left `sending` by a last poll that
failed before it published `waitable.done`.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis

__all__ = [
    "REDIS_OUTAGES",
    "Decision",
    "RedisReadOnly",
    "WaitGuard",
    "backoff",
    "retry_redis",
]


class RedisReadOnly(redis.exceptions.ConnectionError):
    """The records' Redis answered READONLY: it is a replica now (a failover
    demoted it), and the connection is closed so that the next one reaches the
    primary (through DNS, or a virtual IP that moved). An outage, as a Redis away
    is, so it is retried: a ConnectionError."""


#: The errors of a Redis that is away for a moment (restarting, failing over, a
#: network blip), as opposed to a script or a reply that is wrong.
REDIS_OUTAGES: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,  # RedisReadOnly, BusyLoadingError too
    redis.exceptions.TimeoutError,
)

logger = logging.getLogger("waitable.celery")

_T = TypeVar("_T")

# KEYS[1] the wait's hash; ARGV: seq, token, lease_ms, ttl_s.
# Returns {verdict, detail}: run | cancel (run, but end the wait as cancelled) |
# stale | ended | busy (ms left) | successor (ms left: the holder runs poll seq - 1,
# which published this message and frees the lease once it has recorded that) |
# resend (outcome). `running` is the holder's seq.
_BEGIN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call(
  'HMGET', KEYS[1], 'seq', 'done', 'owner', 'until', 'outcome', 'running', 'cancel')
local seq, token = tonumber(ARGV[1]), ARGV[2]
local held = h[3] and h[3] ~= token and tonumber(h[4]) > now
if h[2] == 'sent' then return {'ended', ''} end
if h[2] == 'sending' then
  if held then return {'busy', tostring(tonumber(h[4]) - now)} end
  redis.call('HSET', KEYS[1], 'owner', token, 'until', now + tonumber(ARGV[3]))
  return {'resend', h[5]}
end
if h[1] and tonumber(h[1]) >= seq then return {'stale', ''} end
if held then
  local verdict = 'busy'
  if tonumber(h[6]) == seq - 1 then verdict = 'successor' end
  return {verdict, tostring(tonumber(h[4]) - now)}
end
redis.call('HSET', KEYS[1], 'owner', token, 'until', now + tonumber(ARGV[3]), 'running', seq)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
if h[7] then return {'cancel', ''} end
return {'run', ''}
"""

# KEYS[1] the hash, KEYS[2] the due index; ARGV: seq, token, next message, overdue at, id.
# The successor of poll `seq` is published: record it, free the lease. 2 when the
# wait was cancelled meanwhile and this call recorded the successor (it need not
# wait out its delay; a copy of the poll that another worker advanced first gets 1).
_ADVANCE = """
local h = redis.call('HMGET', KEYS[1], 'seq', 'owner', 'done', 'cancel')
if h[3] then return 0 end
local recorded = not h[1] or tonumber(h[1]) < tonumber(ARGV[1])
if recorded then
  redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'next', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
end
if h[2] == ARGV[2] then redis.call('HDEL', KEYS[1], 'owner', 'until', 'running') end
if recorded and h[4] then return 2 end
return 1
"""

# KEYS[1] the hash. Ask the wait to end as cancelled at its next poll. Returns
# {verdict, detail}: unknown (no record) | ended | cancelled (the pending poll's
# message, '' when none is recorded).
_CANCEL = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown', ''} end
local h = redis.call('HMGET', KEYS[1], 'done', 'next')
if h[1] then return {'ended', ''} end
redis.call('HSET', KEYS[1], 'cancel', '1')
return {'cancelled', h[2] or ''}
"""

# KEYS[1] the hash. How the wait stands: unknown (no record) | running | ended
# (detail: the outcome; '' for a record written before outcomes were kept).
_OUTCOME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown', ''} end
local h = redis.call('HMGET', KEYS[1], 'done', 'outcome')
if h[1] then return {'ended', h[2] or ''} end
return {'running', ''}
"""

# KEYS[1] the hash, KEYS[2] the due index; ARGV: first message, overdue at, id,
# ttl_s, start token. 0 when the id is in use (its record exists: a running wait, or
# one ended less than `keep` ago), which is left untouched; 1 when the record is
# new, or is this very start's (the client sent the script again after a dropped reply).
_STARTED = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'started') == ARGV[5] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'next', ARGV[1], 'started', ARGV[5])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
"""

# KEYS[1] the due index; ARGV: now, retry at, limit, prefix. Overdue waits' messages:
# the pending poll's; the last poll's while the wait is `sending` (that poll ended
# it, then failed or died before publishing `waitable.done`: its copy resends
# it); or, once `sent`, the undelivered `waitable.done`.
_SWEEP = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local found = {}
for _, id in ipairs(ids) do
  local h = redis.call('HMGET', ARGV[4] .. id, 'next', 'done', 'delivered')
  if h[1] and (not h[2] or h[2] == 'sending' or (h[2] == 'sent' and not h[3])) then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    table.insert(found, id)
    table.insert(found, h[1])
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return found
"""

# KEYS[1]; ARGV: token, outcome, ttl_s. The wait ended: keep the first outcome, hold the lease.
_FINISH = """
local h = redis.call('HMGET', KEYS[1], 'done', 'owner', 'outcome')
if h[1] == 'sent' then return {'ended', ''} end
if h[1] == 'sending' and h[2] ~= ARGV[1] then return {'ended', ''} end
if h[1] ~= 'sending' then
  redis.call('HSET', KEYS[1], 'done', 'sending', 'outcome', ARGV[2])
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
  return {'send', ARGV[2]}
end
return {'send', h[3]}
"""

# KEYS[1] the hash, KEYS[2] the due index; ARGV: ttl_s, id, done message or '', overdue at.
# `waitable.done` is published (or there is no on_done): the chain ends; the
# message stays for the sweep until its consumer records it delivered.
_SENT = """
redis.call('HSET', KEYS[1], 'done', 'sent')
redis.call('HDEL', KEYS[1], 'owner', 'until', 'running', 'seq', 'next')
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[1], 'delivered') == 0 then
  redis.call('HSET', KEYS[1], 'next', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
else
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 1
"""

# KEYS[1] the hash; ARGV: owner, lease_ms, ttl_s. May `owner` make the on_done call?
# Returns {verdict, detail}: run | rerun (a runner's lease ran out; detail: how many
# times that happened, `reruns`) | busy (ms left) | delivered.
_CLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'delivered', 'runner', 'runner_until')
if h[1] then return {'delivered', h[1]} end
local verdict, detail = 'run', ''
if h[2] and h[2] ~= ARGV[1] then
  if tonumber(h[3]) > now then return {'busy', tostring(tonumber(h[3]) - now)} end
  verdict = 'rerun'
  detail = tostring(redis.call('HINCRBY', KEYS[1], 'reruns', 1))
end
redis.call('HSET', KEYS[1], 'runner', ARGV[1], 'runner_until', now + tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return {verdict, detail}
"""

# KEYS[1] the hash; ARGV: holder, lease_ms, holder field, until field. Extend a
# lease (the poll's: owner/until; the call's: runner/runner_until) if still holder's.
_RENEW = """
if redis.call('HGET', KEYS[1], ARGV[3]) ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[4], now + tonumber(ARGV[2]))
return 1
"""

# KEYS[1] the hash, KEYS[2] the due index; ARGV: owner, how (ran|failed), ttl_s, id.
# The call is over for good: later copies do nothing. 1 if owner still held the lease.
_DELIVERED = """
local held = redis.call('HGET', KEYS[1], 'runner') == ARGV[1]
redis.call('HSET', KEYS[1], 'delivered', ARGV[2])
redis.call('HDEL', KEYS[1], 'next')
if held then redis.call('HDEL', KEYS[1], 'runner', 'runner_until') end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('ZREM', KEYS[2], ARGV[4])
if held then return 1 end
return 0
"""

# KEYS[1] the hash; ARGV: owner. The call raised: free the lease, nothing delivered.
_RELEASE = """
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'runner', 'runner_until')
return 1
"""


@dataclass(frozen=True, slots=True)
class Decision:
    """What a poll message may do: `verdict` and its `detail` (ms left, or an outcome)."""

    verdict: str
    detail: str = ""


class WaitGuard:
    """The Lua-scripted checks on one Redis client; `key_prefix` names the hashes."""

    def __init__(self, client: Any, key_prefix: str = "waitable:") -> None:
        self.client = client
        self.key_prefix = key_prefix
        self._begin = _script(client, _BEGIN)
        self._advance = _script(client, _ADVANCE)
        self._cancel = _script(client, _CANCEL)
        self._outcome = _script(client, _OUTCOME)
        self._started = _script(client, _STARTED)
        self._sweep = _script(client, _SWEEP)
        self._finish = _script(client, _FINISH)
        self._sent = _script(client, _SENT)
        self._claim = _script(client, _CLAIM)
        self._renew = _script(client, _RENEW)
        self._delivered = _script(client, _DELIVERED)
        self._release = _script(client, _RELEASE)

    def key(self, wait_id: str) -> str:
        """The Redis key of a wait's hash."""
        return f"{self.key_prefix}{wait_id}"

    def begin(
        self, wait_id: str, seq: int, token: str, lease: float, ttl: float
    ) -> Decision:
        """May poll `seq` of the wait run now? Takes the lease when it may.

        `run`, `cancel` (the lease is taken: end the wait as cancelled, polling
        nothing), `stale` or `ended` (drop the message), `resend` (detail: the
        outcome), `busy` (detail: ms left on the lease of another copy of this
        poll), or `successor`: the lease is held by poll `seq - 1`, whose run
        published this message and frees the lease as soon as it has recorded
        that (detail: ms left, the bound if that run died in between).
        """
        reply = self._begin(
            keys=[self.key(wait_id)],
            args=[seq, token, _ms(lease), _seconds(ttl)],
        )
        return _decision(reply)

    def renew_poll(self, wait_id: str, token: str, lease: float) -> bool:
        """Extend the lease `token` took on a poll by `lease`; False when it is no
        longer `token`'s (it ran out and another copy took it, or the poll advanced)."""
        args = [token, _ms(lease), "owner", "until"]
        return bool(self._renew(keys=[self.key(wait_id)], args=args))

    @property
    def due_key(self) -> str:
        """The sorted set of pending waits by the time their next poll is overdue."""
        return f"{self.key_prefix}due"

    def started(
        self, wait_id: str, message: str, overdue_at: float, ttl: float, token: str
    ) -> bool:
        """Record a new wait whose first poll (`message`, JSON) is about to be published.

        False, touching nothing, when `wait_id` is in use: its record exists (the
        wait runs, or ended less than `keep` ago). One Lua script, so of two
        producers starting one id at once exactly one gets True. `token` is unique
        to this start: the same call sent twice (a reply lost) still gets True.
        """
        reply = self._started(
            keys=[self.key(wait_id), self.due_key],
            args=[message, overdue_at, wait_id, _seconds(ttl), token],
        )
        return bool(reply)

    def advance(
        self, wait_id: str, seq: int, token: str, message: str, overdue_at: float
    ) -> bool:
        """Poll `seq`'s successor (`message`) is published: older copies become stale.
        True when the wait was cancelled meanwhile (its successor may begin now)."""
        reply = self._advance(
            keys=[self.key(wait_id), self.due_key],
            args=[seq, token, message, overdue_at, wait_id],
        )
        return int(reply) == 2

    def cancel(self, wait_id: str) -> Decision:
        """Ask the wait to end as cancelled when its next poll begins.

        `cancelled` (detail: the pending poll's message, JSON, or ''), `ended` (it
        had ended: nothing changed) or `unknown` (no record: never started, or
        ended more than `keep` ago).
        """
        return _decision(self._cancel(keys=[self.key(wait_id)]))

    def outcome(self, wait_id: str) -> Decision:
        """How the wait stands: `ended` (detail: its outcome, JSON), `running` or
        `unknown` (no record: never started, or ended more than `keep` ago)."""
        return _decision(self._outcome(keys=[self.key(wait_id)]))

    def is_record(self, wait_id: str) -> bool:
        """False for the one id whose key is the due index, which no wait may have."""
        return self.key(wait_id) != self.due_key

    def sweep(
        self, now: float, retry_at: float, limit: int = 1000
    ) -> list[tuple[str, str]]:
        """(wait id, message) of the waits whose next poll is overdue at `now`;
        looked at again at `retry_at`."""
        reply = self._sweep(
            keys=[self.due_key], args=[now, retry_at, limit, self.key_prefix]
        )
        parts = [_text(part) for part in reply]
        return list(zip(parts[::2], parts[1::2]))

    def due_again(self, wait_ids: list[str], at: float) -> None:
        """Have the sweep look at `wait_ids` again at `at` (those still pending)."""
        if wait_ids:
            self.client.zadd(
                self.due_key, {wait_id: at for wait_id in wait_ids}, xx=True
            )

    def finish(self, wait_id: str, token: str, outcome: str, ttl: float) -> Decision:
        """The wait ended with `outcome` (JSON): `send` it (the first outcome kept) or not."""
        reply = self._finish(
            keys=[self.key(wait_id)], args=[token, outcome, _seconds(ttl)]
        )
        return _decision(reply)

    def sent(
        self,
        wait_id: str,
        ttl: float,
        done_message: str = "",
        overdue_at: float = 0.0,
    ) -> None:
        """`waitable.done` (`done_message`, JSON; '' for none) is published; polls now do nothing."""
        self._sent(
            keys=[self.key(wait_id), self.due_key],
            args=[_seconds(ttl), wait_id, done_message, overdue_at],
        )

    def claim(self, wait_id: str, owner: str, lease: float, ttl: float) -> Decision:
        """May `owner` make the wait's on_done call now? Takes the lease when it may.

        `run`; `rerun` (the last runner's lease ran out: it died, perhaps mid-call;
        detail: how many runners of this wait's call have so far);
        `busy` (detail: ms left on another runner's lease); `delivered` (detail:
        `ran` or `failed`).
        """
        reply = self._claim(
            keys=[self.key(wait_id)], args=[owner, _ms(lease), _seconds(ttl)]
        )
        return _decision(reply)

    def renew(self, wait_id: str, owner: str, lease: float) -> bool:
        """Extend `owner`'s lease on the call by `lease`; False when it is no longer owner's."""
        args = [owner, _ms(lease), "runner", "runner_until"]
        return bool(self._renew(keys=[self.key(wait_id)], args=args))

    def delivered(self, wait_id: str, owner: str, ttl: float, how: str = "ran") -> bool:
        """The on_done call is over (`ran`, or `failed` for good); False if owner had lost the lease."""
        reply = self._delivered(
            keys=[self.key(wait_id), self.due_key],
            args=[owner, how, _seconds(ttl), wait_id],
        )
        return bool(reply)

    def release(self, wait_id: str, owner: str) -> bool:
        """The on_done call raised: free `owner`'s lease so that a retry may run it."""
        return bool(self._release(keys=[self.key(wait_id)], args=[owner]))

    def reruns(self, wait_id: str) -> int:
        """How many runners of the wait's on_done call died in it (`claim`'s
        `rerun` count): failures of the body as its raises are. 0 when the
        record holds no count, or one that is no number (changed by hand)."""
        value = self.client.hget(self.key(wait_id), "reruns")
        try:
            return max(0, int(value)) if value is not None else 0
        except ValueError:
            return 0


def _script(client: Any, text: str) -> Callable[..., Any]:
    """The Lua script `text` on `client`, called as redis-py's `Script` is
    (`keys=`, `args=`), a READONLY reply raised as `RedisReadOnly` once the
    client's connections are closed. A write in a script on a replica fails
    whole (nothing of it is written), so running the script again is safe.
    Redis 7 replies `ReadOnlyError`, whose text redis-py strips of the code
    (so the class tells it); Redis 6 a `ResponseError` that quotes it."""
    script = client.register_script(text)

    def run(keys: list[Any], args: list[Any] | None = None) -> Any:
        try:
            return script(keys=keys, args=args)
        except redis.exceptions.ResponseError as error:
            if not _read_only(error):
                raise
            client.connection_pool.disconnect()
            raise RedisReadOnly(
                f"the records' Redis is a read-only replica ({error}): a failover is "
                "under way; if it lasts, point install(app, redis_url=...) at the "
                "primary"
            ) from error

    return run


def _read_only(error: redis.exceptions.ResponseError) -> bool:
    """Whether `error` is a READONLY reply: redis-py's `ReadOnlyError` (Redis 7
    gives a script's error its code; the text is without it), or an error of a
    script quoting it (Redis 6: "... @user_script: 1: -READONLY You can't write
    against a read only replica.")."""
    return isinstance(error, redis.exceptions.ReadOnlyError) or "READONLY" in str(error)


def _decision(reply: Any) -> Decision:
    verdict, detail = (_text(part) for part in reply)
    return Decision(verdict, detail)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None else str(value)


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


def _seconds(seconds: float) -> int:
    return max(1, int(seconds + 0.999))


def backoff(attempt: int, first: float, cap: float) -> float:
    """`first` seconds doubled `attempt` times (0, 1, ...), at most `cap`."""
    return min(cap, math.ldexp(first, min(attempt, 62)))


def retry_redis(call: Callable[[], _T], what: str, limit: float) -> _T:
    """`call()`, again after 0.05 s, 0.1 s, ... (at most 1 s apart) while Redis is away.

    For the records that must be written once the work they record is done (a
    poll made, an on_done body run): doing that work again is what a failed
    write would cost, so the write is retried in place. Gives up (raising the
    last error) once `limit` seconds have passed: by then the lease covering the
    work has run out and a copy may take it over, as after a dead worker. Only
    for the scripts that a second run leaves as one run left them.
    """
    end = time.monotonic() + limit
    attempt = 0
    while True:
        try:
            return call()
        except REDIS_OUTAGES as error:
            pause = backoff(attempt, 0.05, 1.0)
            if time.monotonic() + pause > end:
                raise
            logger.warning("%s: Redis is away (%s); trying again", what, error)
            time.sleep(pause)
            attempt += 1
