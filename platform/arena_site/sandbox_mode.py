"""Whether this host runs bots in the sandbox (setting `ARENA_SANDBOX`: auto | on | off).

Without the sandbox only trusted code may run: the built-in bots. Uploads of other bots are refused then, and
a match with an untrusted bot fails with a reason instead of running it unconfined.
"""

from __future__ import annotations

import functools

from django.conf import settings


class SandboxRequired(RuntimeError):
    """Untrusted code would have to run on a host without the sandbox."""


@functools.lru_cache(maxsize=1)
def unavailable_reason() -> str | None:
    """Why this host can't sandbox bots (None when it can). Checked once per process."""
    mode = settings.ARENA_SANDBOX
    if mode == "off":
        return "the sandbox is switched off (ARENA_SANDBOX=off)"
    try:
        from arena.sandbox import check_available
    except ImportError as exc:  # the sandbox package missing altogether
        return f"the sandbox is not installed ({exc})"
    try:
        check_available()
    except Exception as exc:  # SandboxUnavailable, or a broken host: either way no confinement
        if mode == "on":
            raise
        return str(exc)
    return None


def sandbox_enabled() -> bool:
    return unavailable_reason() is None


def untrusted_refusal() -> str:
    """The message shown when an upload is refused because bots can't be sandboxed here."""
    return ("this Arena server runs without the bot sandbox, so it only plays its trusted built-in bots and "
            f"refuses uploads: {unavailable_reason()}")
