"""The site's log-in page: Django's log-in view (allauth's backend behind it: a username or an email address) with
the API's per-address log-in limit (`accounts.throttles.LOGIN`, `login.address`). django-axes locks one name
tried from one address; this bounds one address trying a few passwords on many names. Only POSTs count."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.http import HttpResponse

from accounts import throttles


class LoginView(auth_views.LoginView):
    template_name = "web/login.html"
    next_page = "web:me"
    redirect_authenticated_user = True

    def dispatch(self, request, *args, **kwargs):
        if request.method == "POST" and (wait := throttles.throttled(request, throttles.LOGIN)) is not None:
            return HttpResponse(f"Too many log-in attempts from your address: try again in {int(wait) + 1} s.",
                                status=429, content_type="text/plain")
        return super().dispatch(request, *args, **kwargs)


login = LoginView.as_view()
