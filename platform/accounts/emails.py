"""Which accounts have a verified email address, and what waits for one.

An account that signed up by itself (the web form, the API, an identity provider) has its address in allauth's
`EmailAddress` table from the start, unverified until its owner follows the link mailed to it (or the identity
provider vouched for it). Such an account may log in, look around, make bots and challenge at once, but
**uploading bot versions** (code Arena runs) and **email notifications** wait until its address is verified.

The rule looks at a flag on the account (`SelfSignup`), set when it signs up: such an account is held back until
its own address (`User.email`) has a verified record, and only such an address is ever mailed. Removing its
address does not lift the hold (the last address can't be removed: `AccountAdapter.can_delete_email`), and the
notification form can't set an address past verification. Accounts without the flag were made by staff in the
admin, by `register_builtin_bots` (the house) or by an Arena from before verification existed: nobody signed them
up through a form, so nothing is held back (their notification address is the one on the account, unless an
unverified record says it waits for its link). Changing an address never holds an account back: the new address
waits aside until verified, and replaces the old one only then (`ACCOUNT_CHANGE_EMAIL`).
"""

from __future__ import annotations

from allauth.account.models import EmailAddress

UNVERIFIED_UPLOAD = ("verify your email address first: follow the link Arena mailed you (or have it sent again "
                     "from /accounts/email/ or POST /api/auth/email/resend/)")


def _own_address(user) -> EmailAddress | None:
    """The allauth record of the account's own address, if it has one."""
    if not getattr(user, "email", ""):
        return None
    return EmailAddress.objects.filter(user=user, email__iexact=user.email).first()


def signed_up(user) -> bool:
    """True when the account was made by its owner (a form, the API, an identity provider)."""
    from accounts.models import SelfSignup

    return SelfSignup.objects.filter(user=user).exists()


def verification_pending(user) -> bool:
    """True when `user` signed up and its own address is not verified yet (and so may not upload)."""
    if user is None or not user.is_authenticated or user.is_staff:
        return False
    record = _own_address(user)
    if signed_up(user):
        return record is None or not record.verified
    return record is not None and not record.verified


def notification_address(user) -> str | None:
    """Where notifications may be mailed: the account's address unless Arena is still waiting for its
    verification (then None: Arena never mails an address nobody proved to own)."""
    if not user.email:
        return None
    record = _own_address(user)
    if record is None:
        return None if signed_up(user) else user.email
    return user.email if record.verified else None


def managed_by_allauth(user) -> bool:
    """True when the account's address is changed through verification (it signed up, or has addresses on
    record)."""
    return signed_up(user) or EmailAddress.objects.filter(user=user).exists()
