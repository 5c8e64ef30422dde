"""What accounts does when allauth's flows finish (connected in `AccountsConfig.ready`)."""

from __future__ import annotations

from allauth.account.signals import password_reset, user_signed_up
from django.dispatch import receiver

from accounts.models import ApiToken, SelfSignup


@receiver(user_signed_up, dispatch_uid="accounts.flag_self_signup")
def flag_self_signup(sender, request, user, **kwargs):
    """The web sign-up form and sign-up through an identity provider (the API's sign-up flags its own): the account
    is held back until its address is verified (accounts.emails)."""
    SelfSignup.objects.get_or_create(user=user)


@receiver(password_reset, dispatch_uid="accounts.revoke_tokens_on_password_reset")
def revoke_tokens_on_password_reset(sender, request, user, **kwargs):
    """A password reset (web or API) is how an owner takes a stolen account back: tokens made with the old
    password stop working too (the owner page or a log-in makes a new one)."""
    ApiToken.objects.filter(user=user).delete()
