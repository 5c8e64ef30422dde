"""The site's sign-up page: django-allauth's sign-up (username, email, password; a verification link is mailed)
in the site's template, with the API's per-address sign-up limit (`accounts.throttles.SIGNUP`). Log-in is
Django's log-in view (web/urls.py) with allauth's backend behind it: a username or an email address."""

from __future__ import annotations

from allauth.account.utils import get_next_redirect_url
from allauth.account.views import SignupView as AllauthSignupView
from django.http import HttpResponse

from accounts import throttles
from accounts.adapter import AFTER_VERIFICATION


class SignupView(AllauthSignupView):
    template_name = "web/signup.html"

    def dispatch(self, request, *args, **kwargs):
        if request.method == "POST" and (wait := throttles.throttled(request, throttles.SIGNUP)) is not None:
            return HttpResponse(f"Too many sign-ups from your address: try again in {int(wait) + 1} s.",
                                status=429, content_type="text/plain")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        """Signed up with a page to go back to (`next`, e.g. a team invitation that sent them to log in): allauth
        goes there now, and the verification link mailed goes there too (`AccountAdapter`), in this browser."""
        response = super().form_valid(form)
        if url := get_next_redirect_url(self.request):
            self.request.session[AFTER_VERIFICATION] = url
        return response


signup = SignupView.as_view()
