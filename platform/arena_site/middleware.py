"""Security headers Django 5.2 does not send by itself, and the bound on a request's body."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


class FrameAncestorsMiddleware:
    """`Content-Security-Policy: frame-ancestors 'none'` on every response that sets no policy of its own: no
    other site may frame an Arena page (clickjacking), the CSP counterpart of X-Frame-Options: DENY, which
    current browsers prefer when both are present."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        return response


class BodyLimitMiddleware:
    """413 for a request whose body is larger than `ARENA_REQUEST_MAX_BYTES` (the largest upload and a margin for
    its form fields), answered from the Content-Length header before anything reads the body. Django spools a
    multipart body's files to temporary files without a limit of its own, and CSRF checking parses the body of
    any POST to a page that carries a CSRF cookie (anyone can make their own): without this, anyone could fill
    the web server's disk with one request. A body without a
    Content-Length (chunked) is not read at all by Django: nothing to bound."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit: int = settings.ARENA_REQUEST_MAX_BYTES
        if length > limit:
            detail = f"the request body is {length} bytes; at most {limit} are accepted"
            if request.path.startswith("/api/"):
                response: HttpResponse = JsonResponse({"detail": detail}, status=413)
            else:
                response = HttpResponse(detail + "\n", status=413, content_type="text/plain; charset=utf-8")
            response["Connection"] = "close"  # the unread body is not waited for
            return response
        return self.get_response(request)
