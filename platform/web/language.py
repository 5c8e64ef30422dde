"""The language switcher on every page: Django's `set_language` (it checks `next` is this site's, sets the
cookie and sends the person back to the page they were on), which also saves the choice on a signed-in account
(`accounts.language`), so it follows them to other browsers and into their emails."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.language import remember


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    if request.user.is_authenticated:
        remember(request.user, request.POST.get("language", ""))
    return response
