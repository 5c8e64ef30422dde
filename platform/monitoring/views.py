"""`GET /metrics`: the Prometheus text format, for a bearer token or a staff log-in.

Protected, not loopback-only: behind the usual reverse proxy every request comes from loopback, and Prometheus
scrapes across machines with `authorization: {credentials: ...}` (a bearer token) anyway. The token is
`ARENA_METRICS_TOKEN` (unset: only staff signed in to the site may read the metrics, e.g. from a browser)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from monitoring.collector import ArenaCollector

registry = CollectorRegistry(auto_describe=False)
registry.register(ArenaCollector())


def allowed(request: HttpRequest) -> bool:
    """A staff session, or `Authorization: Bearer <ARENA_METRICS_TOKEN>` compared in constant time."""
    if request.user.is_authenticated and getattr(request.user, "is_staff", False):
        return True
    token: str = getattr(settings, "ARENA_METRICS_TOKEN", "")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


@never_cache  # a shared cache must never hand a staff member's scrape to anyone else
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        response = HttpResponse("metrics need a staff log-in or the bearer token ARENA_METRICS_TOKEN\n",
                                status=401, content_type="text/plain; charset=utf-8")
        response["WWW-Authenticate"] = 'Bearer realm="arena-metrics"'
        return response
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
