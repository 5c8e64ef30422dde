"""Whether this host runs bots in the sandbox (setting `ARENA_SANDBOX`: auto | on | off | worker).

Without the sandbox only trusted code may run: the built-in bots. Uploads of other bots are refused then, and
a match with an untrusted bot fails with a reason instead of running it unconfined.

`worker` is for a web server that never runs bots itself (docker-compose.yml's unprivileged web container): it
accepts uploads without probing its own host, because the capability that matters is the workers'. A worker
decides for itself (`worker` means `auto` there): without the sandbox it fails the version's validation, or the
match, with the reason it found, and never runs untrusted code unconfined. Each worker logs what it found at
start-up (`log_worker_sandbox`).
"""

from __future__ import annotations

import functools
import logging

from celery.signals import worker_ready
from django.conf import settings

log = logging.getLogger(__name__)


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


def uploads_accepted() -> bool:
    """Whether this web server takes uploads: when it can sandbox them itself, or when `ARENA_SANDBOX=worker`
    leaves that to the workers that validate and play them."""
    return settings.ARENA_SANDBOX == "worker" or sandbox_enabled()


def worker_refusal() -> str | None:
    """Why this worker won't run uploaded code (one line, shown to the version's owner), None when it can
    sandbox it. `ARENA_SANDBOX=on` on a host that can't is a refusal too, not a crash."""
    try:
        reason = unavailable_reason()
    except Exception as exc:
        reason = str(exc)
    return None if reason is None else f"this Arena worker can't sandbox bots, so it won't run uploaded code: {reason}"


@worker_ready.connect
def log_worker_sandbox(**_: object) -> None:
    """Say at a worker's start what it found, so an operator sees at once why uploads would fail (cgroup v1
    without the needed controllers, not root, no user namespaces, ...). `ARENA_SANDBOX=on` makes it an error."""
    try:
        reason = unavailable_reason()
    except Exception as exc:  # ARENA_SANDBOX=on on a host that can't sandbox
        log.error("ARENA_SANDBOX=on, but this worker can't sandbox bots: %s; every uploaded version and every "
                  "match with one fails until it can", exc)
        return
    if reason is None:
        from arena.sandbox import cgroups

        log.info("sandbox available: bots run confined (cgroup %s)", "v2" if cgroups.is_v2() else "v1")
    else:
        log.warning("sandbox unavailable: %s; this worker plays only the built-in bots, and fails uploaded "
                    "versions and their matches with this reason", reason)


def untrusted_refusal() -> str:
    """The message shown when an upload is refused because bots can't be sandboxed here."""
    return ("this Arena server runs without the bot sandbox, so it only plays its trusted built-in bots and "
            f"refuses uploads: {unavailable_reason()}")
