"""The shared cache (Redis) that fails safe: what it counts goes on per process while Redis is away.

The cache holds the rate limits' and allauth's counters (`accounts.throttles`, `ACCOUNT_RATE_LIMITS`). A Redis
that is stopped or hangs used to turn every log-in, sign-up, upload and challenge into a 500. `FailSafeRedisCache`
answers from a bounded in-process cache instead when Redis refuses or does not answer within its socket timeouts
(`ARENA_CACHE_TIMEOUT` seconds; `CACHES["default"]["OPTIONS"]` in settings): limits still hold, counted per web
process, until Redis is back; log-in lock-out (django-axes) is kept in the database and never depended on Redis.
It says so: a warning in the log (once a minute at most) and `unreachable_since()` for `/metrics` and `/healthz`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger("arena.platform")

_WARN_EVERY = 60.0  # seconds between two warnings of one process while Redis stays away
_state: dict[str, float | None] = {"since": None, "warned": 0.0}
_lock = threading.Lock()


def unreachable_since() -> float | None:
    """When (`time.time()`) this process last found the cache unreachable, if it has not answered since."""
    return _state["since"]


def _failed(exc: Exception) -> None:
    now = time.time()
    with _lock:
        if _state["since"] is None:
            _state["since"] = now
        warn = now - (_state["warned"] or 0.0) >= _WARN_EVERY
        if warn:
            _state["warned"] = now
    if warn:
        log.warning("the cache (Redis) is unreachable (%s): rate limits are counted in this process until it is "
                     "back", exc)


def _answered() -> None:
    if _state["since"] is not None:
        with _lock:
            _state["since"] = None
            _state["warned"] = 0.0
        log.warning("the cache (Redis) answers again: rate limits are shared by every process again")


def _fail_safe(name: str) -> Callable[..., Any]:
    def method(self: FailSafeRedisCache, *args: Any, **kwargs: Any) -> Any:
        try:
            result = getattr(RedisCache, name)(self, *args, **kwargs)
        except self._lib.RedisError as exc:  # refused, reset, timed out: all are RedisError
            _failed(exc)
            return getattr(self._fallback, name)(*args, **kwargs)
        _answered()
        return result
    method.__name__ = name
    return method


class FailSafeRedisCache(RedisCache):
    """Django's Redis cache whose every operation falls back to an in-process cache when Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._fallback = LocMemCache(f"arena-fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})

    @property
    def _lib(self) -> Any:
        return self._cache._lib  # type: ignore[attr-defined]  # the client keeps the redis module it was made with

    add = _fail_safe("add")
    get = _fail_safe("get")
    set = _fail_safe("set")
    touch = _fail_safe("touch")
    delete = _fail_safe("delete")
    get_many = _fail_safe("get_many")
    has_key = _fail_safe("has_key")
    incr = _fail_safe("incr")
    set_many = _fail_safe("set_many")
    delete_many = _fail_safe("delete_many")
    clear = _fail_safe("clear")
