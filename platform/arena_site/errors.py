"""Error pages with DEBUG off (Django's handler404/handler500, set in arena_site.urls).

A browser gets the site's friendly page (templates/404.html, templates/500.html); an API client gets JSON in the
API's own shape (`{"detail": ...}`), also for a URL under /api/ that matches no route. Neither ever shows a
traceback, a setting or the URL patterns: those appear only with ARENA_DEBUG=1.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "Server error: it has been logged; please try again later."}, status=500)
    return defaults.server_error(request)  # 500.html, rendered without a request context: it cannot fail
