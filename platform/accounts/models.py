"""API tokens, stored as digests only.

A token is 40 hex characters (160 random bits) shown to its owner once, when it is made (sign-up, log-in, the
owner page). The database keeps its SHA-256 and the first characters for recognising it in lists: a copy of the
database does not give access to any account. (A fast hash is right here, unlike for passwords: with 160 random
bits there is nothing to guess; django-rest-knox does the same with SHA-512.)
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token, hex.")
    prefix = models.CharField(max_length=8, help_text="The token's first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


class RetiredName(models.Model):
    """The name of a deleted account, kept reserved so that nobody can sign up as the person who left (or pass
    for them with a look-alike): stored as the SHA-256 of the name's skeleton (`accounts.names.skeleton`), so the
    name itself is shown and kept nowhere (`accounts.deletion`)."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the name's skeleton, hex.")
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"retired name {self.digest[:8]}…"


class SelfSignup(models.Model):
    """The account was made by its owner (the sign-up form, the API, an identity provider), so it is held back
    until it has a verified address (`accounts.emails`). A flag on the account, not read from its addresses: an
    owner who removed an unverified address would otherwise count as an account nobody signed up."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="self_signup")
    signed_up_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} signed up"


class Preferences(models.Model):
    """What an account chose for itself that is not a notification: the language the site speaks to it (pages
    after log-in, on any browser, and its emails: `accounts.language`). Empty: not chosen (the browser's
    language for pages, English for emails)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="preferences")
    language = models.CharField(max_length=16, blank=True, default="", choices=settings.LANGUAGES,
                                help_text="The language of the site and of the emails (a code of LANGUAGES).")

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"{self.user}: {self.language or 'no language chosen'}"
