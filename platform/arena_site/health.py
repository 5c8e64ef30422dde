"""Health checks for docker-compose.yml's services: a cheap `/healthz` view, and a command line that probes it
(or beat's schedule file) from inside a container.

`/healthz` answers 200 "ok" when the process serves requests and its database, its cache (Redis) and its object
storage answer, 503 naming the one that does not otherwise; it tells nothing else (no version, no host names). The
cache and the storage are asked with a deadline (`PROBE_SECONDS`): a dependency that accepts connections and never
answers (a hanging S3 endpoint, a paused Redis) is exactly the one that stalls the site while it still "serves".

The compose healthchecks run `python platform/arena_site/health.py web` and `... alive FILE`: plain Python, no
Django set-up, so that a check costs milliseconds, and a failing check prints why (`docker inspect` shows it).
`alive FILE` reads a mark of life that the process's own loop rewrites: Celery workers' every
`worker_alive.MARK_SECONDS` (arena_site/worker_alive.py), beat's at each tick of its scheduler
(arena_site/beat.py). A mark older than `ALIVE_STALE_SECONDS` means that loop has stopped, whatever the process
still answers."""

from __future__ import annotations

import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from django.http import HttpRequest, HttpResponse

#: A mark of life older than this fails `alive` (marks are rewritten every 10 s or so: 18 missed in a row are no
#: busy host's hiccup).
ALIVE_STALE_SECONDS = 180


#: Seconds the cache and the object storage have, each, to answer the health check (ARENA_HEALTH_PROBE_SECONDS).
#: Generous: a first S3 request of a process (its client's set-up) took 3 s on a loaded 2-core host, and a check
#: that fails because the machine is slow restarts nothing but cries wolf; a dependency that hangs never answers.
PROBE_SECONDS = float(os.environ.get("ARENA_HEALTH_PROBE_SECONDS", "10"))
#: Seconds the web check waits for /healthz (both probes, the database, and a busy gunicorn's queue).
WEB_CHECK_SECONDS = 3 * PROBE_SECONDS


def _stalled_dependency() -> str | None:
    """"cache" or "storage" when it fails or does not answer within PROBE_SECONDS; None when both answer."""
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures import TimeoutError as Late

    from django.core.cache import cache

    from arena_site import objects
    from arena_site.cache import unreachable_since

    def cache_ok() -> bool:
        cache.get("arena-health-probe")  # the fail-safe cache answers from memory when Redis fails: ask it after
        return unreachable_since() is None

    def storage_ok() -> bool:
        objects.exists("arena-health-probe")
        return True

    pool = ThreadPoolExecutor(max_workers=2)  # a probe that hangs is left to its own timeouts, never waited for
    try:
        probes = {"cache": pool.submit(cache_ok), "storage": pool.submit(storage_ok)}
        for name, probe in probes.items():
            try:
                if not probe.result(timeout=PROBE_SECONDS):
                    return name
            except Late:
                return name
            except Exception:  # the dependency refused: it is down
                return name
        return None
    finally:
        pool.shutdown(wait=False)


def healthz(request: HttpRequest) -> HttpResponse:
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # the database is down: this web server can't serve anything useful
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    if stalled := _stalled_dependency():
        return HttpResponse(f"{stalled} unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


def web_request(environ: dict[str, str], port: int = 8000) -> urllib.request.Request:
    """The request that probes this container's own web server as the TLS proxy would: with an allowed host name
    (Django answers 400 to another) and `X-Forwarded-Proto: https` (else ARENA_HTTPS redirects it)."""
    hosts = [h.strip().lstrip(".") for h in environ.get("ARENA_ALLOWED_HOSTS", "").split(",")]
    host = next((h for h in hosts if h and h != "*"), "localhost")
    proto_header = environ.get("ARENA_PROXY_SSL_HEADER", "X-Forwarded-Proto") or "X-Forwarded-Proto"
    return urllib.request.Request(f"http://127.0.0.1:{port}/healthz",
                                  headers={"Host": host, proto_header: "https"})


def web_problem(environ: dict[str, str]) -> str | None:
    """Why this container's web server is not healthy (None when /healthz answers 200 in time)."""
    try:
        with urllib.request.urlopen(web_request(environ), timeout=WEB_CHECK_SECONDS) as response:  # noqa: S310 (our own URL)
            return None if response.status == 200 else f"/healthz answered {response.status}"
    except urllib.error.HTTPError as exc:  # 503 names the dependency that failed
        return f"/healthz answered {exc.code}: {exc.read(200).decode(errors='replace').strip()}"
    except OSError as exc:
        return f"/healthz did not answer within {WEB_CHECK_SECONDS:.0f} s: {exc}"


def alive_problem(mark: Path, now: float | None = None) -> str | None:
    """Why the process marking `mark` is not alive (None when it rewrote the mark within ALIVE_STALE_SECONDS)."""
    now = time.time() if now is None else now
    try:
        age = now - mark.stat().st_mtime
    except OSError:
        return f"no mark of life at {mark} (the process never started its loop)"
    if age > ALIVE_STALE_SECONDS:
        return f"the mark of life {mark} is {age:.0f} s old (over {ALIVE_STALE_SECONDS} s): its loop has stopped"
    return None


def main(argv: list[str]) -> int:
    if argv[1:2] == ["web"] and len(argv) == 2:
        problem = web_problem(dict(os.environ))
    elif argv[1:2] == ["alive"] and len(argv) == 3:
        problem = alive_problem(Path(argv[2]))
    else:
        print("usage: health.py web | alive MARK_FILE", file=sys.stderr)
        return 2
    if problem:
        print(f"unhealthy: {problem}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
