"""allauth's forms with Arena's rules (settings.ACCOUNT_FORMS).

`AddEmailForm` (a change of email, web /accounts/email/ and `POST /api/auth/email/`): an address another account
has on record, verified or not, is refused ("taken"). allauth's own form accepts it quietly (enumeration
prevention) and mails a verification link *for the other account* to that address: a click on it by an owner who
has not verified their own address yet would hand the address to the other account, and anyone could make Arena
mail any address. Sign-up says "taken" already (one account per address), so hiding it here protects nothing.
"""

from __future__ import annotations

from allauth.account import forms as allauth_forms
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth import get_user_model

TAKEN = "another account has this address"


def taken_by_another(email: str, user) -> bool:
    """Whether an account other than `user` has `email` (any case) on record or as its address."""
    return (EmailAddress.objects.filter(email__iexact=email).exclude(user=user).exists()
            or get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists())


class AddEmailForm(allauth_forms.AddEmailForm):
    def clean_email(self) -> str:
        value = super().clean_email()
        if taken_by_another(value, self.user):
            raise forms.ValidationError(TAKEN)
        return value
