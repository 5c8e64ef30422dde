"""Security headers Django 5.2 does not send by itself."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


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
