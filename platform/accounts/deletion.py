"""Deleting an account: the person goes, the games stay.

Matches, their participants, the ratings they moved and their replays belong to every bot that played them, so
deleting an account deletes none of them. The `User` row stays (matches and bots point at it) but is emptied:

- its username becomes `deleted-<id>`, a name nobody can sign up with (`accounts.names` reserves every name that
  reads as `deleted…`/`deleted account`); the old name stays reserved too (`RetiredName`: only the SHA-256 of its
  skeleton is kept), so nobody can later sign up as the person who left, or as a look-alike of them; the old
  name is shown nowhere (`display_name` says "deleted account" everywhere an owner is shown: pages, API,
  exports);
- email, first and last name and last log-in are cleared, the password is made unusable, staff rights, groups
  and permissions are dropped and the account is inactive: it can't log in, and every session it had is dead
  (Django checks the password hash kept in each session, and refuses inactive users);
- its API tokens, and (when django-allauth is installed) its email addresses, identity-provider links, second
  factors and allauth's session records are deleted;
- the apps above accounts do their part when they hear `accounts.signals.account_deleting`, in the same
  transaction: the person's own bots (not their teams') are retired (they leave ladders, matchmaking, challenges
  and tournaments' games still to come; their queued ladder matches and challenges are cancelled), their running
  version tests stop, they leave their teams and their notification settings (webhook secret included) are
  deleted. The retired bots' code (uploaded archives, built packages) is then deleted from storage by the
  daily storage collection (`matches.storage_gc`; a package identical to a live bot's stays, as that bot's).

django-axes' records of failed log-ins keep the old username: they are a security log of the server, kept for
their cool-off, not a profile.

Confirmation: the account's password, or, for an account without one (made through an identity provider), its
user name typed out. A wrong password counts towards the log-in lock-out like a failed log-in.
"""

from __future__ import annotations

import logging
from typing import Any

from django.apps import apps
from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from accounts import throttles
from accounts.models import ApiToken, RetiredName
from accounts.names import name_digest, skeleton
from accounts.signals import account_deleting

log = logging.getLogger(__name__)

#: What pages, the API and exports show for the owner of a deleted account's bots.
DELETED_NAME = "deleted account"
DELETED_PREFIX = "deleted-"

#: Models of optional apps (django-allauth and DRF's own token app) whose rows of a user are personal data; each
#: is deleted when its app is installed, so this works with or without them.
PERSONAL_MODELS = [
    ("account", "EmailAddress"),        # allauth: the person's addresses
    ("socialaccount", "SocialAccount"),  # allauth: identity-provider links (their tokens cascade)
    ("mfa", "Authenticator"),            # allauth: second factors
    ("usersessions", "UserSession"),     # allauth: session records with addresses and user agents
    ("authtoken", "Token"),              # DRF's plaintext tokens, should the app ever be installed
]


def deleted_username(user_id: int) -> str:
    return f"{DELETED_PREFIX}{user_id}"


def is_deleted(user: Any) -> bool:
    """Whether `user` is a deleted account (no query: told by the reserved username and the inactive flag)."""
    return (user is not None and not getattr(user, "is_active", True)
            and getattr(user, "username", None) == deleted_username(user.pk))


def display_name(user: Any) -> str:
    """The name to show for an owner: their username, or "deleted account"."""
    if user is None:
        return ""
    return DELETED_NAME if is_deleted(user) else user.username


def confirmation_problem(request: Any, user: Any, *, password: str = "", username: str = "") -> str | None:
    """None when the person confirmed the deletion of their own account, else what is wrong. `request` is the
    plain Django request (django-axes counts a wrong password on it like a failed log-in)."""
    if user.has_usable_password():
        if not password:
            return "type your password to delete your account"
        if authenticate(request, username=user.username, password=password) is None:
            return "the password is wrong"
        return None
    if username != user.username:
        return "type your user name to delete your account"
    return None


def delete_account(user: Any) -> bool:
    """Delete `user`'s account as the module says; False if it was already deleted. Everything happens in one
    transaction with the user's row locked, the receivers of `account_deleting` included."""
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if is_deleted(user):
            return False
        account_deleting.send(sender=User, user=user)
        ApiToken.objects.filter(user=user).delete()
        for app_label, model_name in PERSONAL_MODELS:
            try:
                model = apps.get_model(app_label, model_name)
            except LookupError:
                continue
            model.objects.filter(user=user).delete()
        RetiredName.objects.get_or_create(digest=name_digest(skeleton(user.username)))
        user.groups.clear()
        user.user_permissions.clear()
        user.username = deleted_username(user.pk)
        user.email = user.first_name = user.last_name = ""
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.save()
    log.info("account %s deleted", user.pk)
    return True


# ----------------------------------------------------------------------------------------------------- the API

class OwnerNameField(serializers.CharField):
    """A user's name as the API shows it ("deleted account" for a deleted one): `OwnerNameField(source="owner")`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return display_name(value)


class DeleteAccountSerializer(serializers.Serializer):
    password = serializers.CharField(required=False, allow_blank=True, max_length=128, trim_whitespace=False,
                                     write_only=True, help_text="The account's password.")
    username = serializers.CharField(required=False, allow_blank=True, max_length=150, write_only=True,
                                     help_text="For an account without a password (identity-provider log-in): "
                                               "its user name, typed out.")


class DeleteMeMixin:
    """`DELETE` on the current account (mixed into `accounts.views.MeView`): rate limited per user and address."""

    request: Any  # the view's, as the APIView this is mixed into has it

    def get_throttles(self):  # the limit applies to deleting only, not to reading the account
        if self.request.method == "DELETE":
            return [cls() for cls in throttles.DELETE_ACCOUNT]
        return super().get_throttles()  # type: ignore[misc]  # the APIView's, next in the view's MRO

    @extend_schema(request=DeleteAccountSerializer, responses={
        204: OpenApiResponse(description="The account is deleted: its bots are retired, its matches stay with "
                                         "the owner shown as \"deleted account\"."),
        400: OpenApiResponse(description="No password (or user name), or a wrong one.")})
    def delete(self, request, *args, **kwargs):
        """Delete your account (see platform/README.md, "Deleting an account"). Send your password; an account
        without one (identity-provider log-in) sends its user name instead."""
        serializer = DeleteAccountSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        problem = confirmation_problem(request._request, user, password=serializer.validated_data.get("password", ""),
                                       username=serializer.validated_data.get("username", ""))
        if problem:
            field = "password" if user.has_usable_password() else "username"
            raise serializers.ValidationError({field: [problem]})
        delete_account(user)
        if hasattr(request._request, "session"):
            request._request.session.flush()
        return Response(status=status.HTTP_204_NO_CONTENT)
