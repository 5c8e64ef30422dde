"""Arena's rules inside django-allauth's flows (settings: ACCOUNT_ADAPTER, SOCIALACCOUNT_ADAPTER).

- Usernames: 3 to 32 letters, digits, '.', '-' or '_', and none that reads as the house's or staff's
  (`accounts.names`), on the sign-up form, the API and sign-up through an identity provider alike. A name an
  identity provider suggests that breaks these rules is not refused: allauth picks another (from the email's
  local part, else "user"), skipping reserved ones.
- Rate limits and lock-outs count the real client address (`accounts.client_ip`), not a spoofable header.
- Mails say they come from "Arena"; their links are built from the site's configured address (`ARENA_SITE_URL`),
  never from the request's Host header, which the sender of the request chooses. A mail that can't be sent (the
  mail server down) is logged and the person told to ask again: the sign-up, address change or reset request
  it belonged to still stands.
"""

from __future__ import annotations

import logging
import re
import smtplib
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django import forms
from django.conf import settings
from django.contrib import messages
from django.utils import translation

from accounts.client_ip import client_ip
from accounts.names import impersonation, protected_names

log = logging.getLogger("arena.platform")

#: the session key of the page a new account was on its way to (sign-up's `next`): the verification link lands there
AFTER_VERIFICATION = "arena_after_verification"

USERNAME_RULE = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
USERNAME_HELP = "3 to 32 letters, digits, '.', '-' or '_'"


def username_problem(name: str) -> str | None:
    """Why `name` can't be a new username (format or reserved), or None. Uniqueness is checked elsewhere."""
    if not USERNAME_RULE.match(name or ""):
        return USERNAME_HELP
    return impersonation(name, protected_names())


def site_link(url: str, site: SplitResult) -> str:
    """`url` (a link allauth made) with the scheme and host of the configured site (`ARENA_SITE_URL`)."""
    parts = urlsplit(url)
    return urlunsplit((site.scheme, site.netloc, site.path.rstrip("/") + parts.path, parts.query, parts.fragment))



def mail_language(address: str, user: Any = None) -> str:
    """The language the account that owns `address` chose (`accounts.language`), or '' when none did."""
    from allauth.account.models import EmailAddress

    from .language import language_of

    if user is None or not getattr(user, "pk", None):
        record = EmailAddress.objects.filter(email__iexact=address).select_related("user").first()
        user = record.user if record else None
    return language_of(user)


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        if problem := username_problem(username):
            raise forms.ValidationError(problem)
        return super().clean_username(username, shallow=shallow)

    def generate_unique_username(self, txts: list[str | None], regex: str | None = None) -> str:
        # allauth derives a name from the provider's data; texts that would read as reserved are left out, so
        # its candidates ("admin", "admin7", ...) are never all refused
        usable = [t for t in txts if t and impersonation(t.split("@")[0], protected_names()) is None]
        return super().generate_unique_username([*usable, "user"], regex)

    def can_delete_email(self, email_address: Any) -> bool:
        # the last address can't go: an account that signed up stays held back without one, and one without an
        # address could not be told of anything or reset its password (accounts.emails)
        from allauth.account.models import EmailAddress

        others = EmailAddress.objects.filter(user_id=email_address.user_id).exclude(pk=email_address.pk)
        return others.exists() and super().can_delete_email(email_address)

    def get_email_verification_redirect_url(self, email_address: Any) -> str:
        # the page the person signed up on the way to (a team invitation), once, if it is one of this site's
        url = self.request.session.pop(AFTER_VERIFICATION, None)
        if isinstance(url, str) and self.is_safe_url(url):
            return url
        return super().get_email_verification_redirect_url(email_address)

    def get_client_ip(self, request: Any) -> str:
        return client_ip(request) or super().get_client_ip(request)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # allauth's mails greet "from <site name>"; without django.contrib.sites that is the host name
        from allauth.core import context as allauth_context
        from django.contrib.sites.requests import RequestSite

        site_url = urlsplit(settings.ARENA_SITE_URL)
        if allauth_context.request is not None and "current_site" not in context:
            site = RequestSite(allauth_context.request)
            site.name = "Arena"
            site.domain = site_url.netloc  # never the request's Host: anyone can send any
            context = {**context, "current_site": site}
        # allauth builds links from the request's Host (a reset asked for with `Host: evil.example` would mail the
        # victim a valid key on the asker's site): every link in a mail points at the configured site instead
        context = {key: site_link(value, site_url) if key.endswith("_url") and isinstance(value, str) else value
                   for key, value in context.items()}
        try:
            # in the recipient's language: the one their account chose, else the page's they asked from (allauth's
            # own pt-BR and zh-Hans catalogs translate its mails)
            with translation.override(mail_language(email, context.get("user")) or translation.get_language()):
                super().send_mail(template_prefix, email, context)
        except (smtplib.SMTPException, OSError) as exc:
            # A mail server that is down or refuses must not undo what the mail was about (an account made, an
            # address added): the person asks for the mail again later (the e-mail page's "re-send"); the
            # operator reads why in the log.
            log.error("could not send the %s mail to %s: %s", template_prefix.rsplit("/", 1)[-1], email, exc)
            request = allauth_context.request
            if request is not None and hasattr(request, "_messages"):
                messages.warning(request, translation.gettext(
                    "We could not send you the e-mail just now. Please ask for it again in a few minutes."))


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    """Sign-up through an identity provider follows the account rules above (allauth asks the account adapter)."""
