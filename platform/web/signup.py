"""The site's sign-up page: django-allauth's sign-up (username, email, password; a verification link is mailed)
in the site's template, with the API's per-address sign-up limit (`accounts.throttles.SIGNUP`). Log-in is
Django's log-in view (web/urls.py) with allauth's backend behind it: a username or an email address."""

from __future__ import annotations

from allauth.account.views import SignupView as AllauthSignupView
from django.http import HttpResponse

from accounts import throttles


class SignupView(AllauthSignupView):
    template_name = "web/signup.html"

    def dispatch(self, request, *args, **kwargs):
        if request.method == "POST" and (wait := throttles.throttled(request, throttles.SIGNUP)) is not None:
            return HttpResponse(f"Too many sign-ups from your address: try again in {int(wait) + 1} s.",
                                status=429, content_type="text/plain")
        return super().dispatch(request, *args, **kwargs)


signup = SignupView.as_view()
