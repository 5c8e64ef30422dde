"""The API's side of allauth's account flows: email address and its verification, password reset and change.

Thin DRF views over allauth's own forms and flows, so the API and the web pages (/accounts/...) follow one set of
rules, rate limits and mails. The keys these views take are the last part of the links Arena mails:
`/accounts/confirm-email/<key>/` and `/accounts/password/reset/key/<key>/`.

- `GET /api/auth/email/` the account's addresses; `POST` (email) starts a change: the new address gets a link,
  and replaces the old one once verified (`ACCOUNT_CHANGE_EMAIL`); an address another account has is a 400
  (`accounts.forms`).
- `POST /api/auth/email/resend/` mails the verification link again (allauth limits it to one per 3 minutes).
- `POST /api/auth/email/verify/` (key) verifies; an unknown, expired or used key is a 400.
- `POST /api/auth/password/reset/` (email) mails a reset link; the answer is the same whether or not an
  account has the address (no way to learn who has an account).
- `POST /api/auth/password/reset/confirm/` (key, password) sets the password; an unknown or used key is a 400.
  Every API token of the account stops working (a reset is how an owner takes a stolen account back).
- `POST /api/auth/password/change/` (old_password, password) for the signed-in owner.
"""

from __future__ import annotations

import re

from allauth.account import forms as allauth_forms
from allauth.account.internal import flows
from allauth.account.models import EmailAddress, get_emailconfirmation_model
from allauth.core import ratelimit
from allauth.core.exceptions import ReauthenticationRequired
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, generics, permissions, serializers, status
from rest_framework.response import Response

from accounts import throttles
from accounts.forms import AddEmailForm

_DETAIL = inline_serializer("Detail", {"detail": serializers.CharField()})


def _form_errors(form) -> dict[str, list[str]]:
    """allauth's form errors in the API's shape (field → messages; `non_field_errors` for the rest)."""
    errors: dict[str, list[str]] = {}
    for field, messages in form.errors.items():
        errors["non_field_errors" if field == "__all__" else field] = [str(m) for m in messages]
    return errors


def _consume(request, action: str, **kwargs) -> None:
    """Count the request against allauth's ACCOUNT_RATE_LIMITS[action] (as its own views do); 429 over it."""
    if not ratelimit.consume(request._request, action=action, **kwargs):
        raise exceptions.Throttled(detail="Too many attempts: try again later.")


def _rate_limited(response) -> None:
    """allauth answers 429 itself when one of its ACCOUNT_RATE_LIMITS trips: the API says so in JSON."""
    if response is not None and getattr(response, "status_code", 200) == 429:
        raise exceptions.Throttled(detail="Too many attempts: try again later.")


class EmailAddressSerializer(serializers.Serializer):
    email = serializers.EmailField()
    verified = serializers.BooleanField(read_only=True)
    primary = serializers.BooleanField(read_only=True)


class EmailView(generics.GenericAPIView):
    """The signed-in account's email addresses. POST an address to change to it: a verification link goes to it,
    and it replaces the current address once followed (until then notifications go to the old, verified one)."""

    serializer_class = EmailAddressSerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def _addresses(self):
        return EmailAddress.objects.filter(user=self.request.user).order_by("-primary", "email")

    @extend_schema(responses={200: EmailAddressSerializer(many=True)})
    def get(self, request):
        return Response(EmailAddressSerializer(self._addresses(), many=True).data)

    @extend_schema(request=EmailAddressSerializer, responses={202: EmailAddressSerializer(many=True)})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _consume(request, "manage_email", user=request.user)
        form = AddEmailForm(user=request.user, data={"email": serializer.validated_data["email"]})
        if not form.is_valid():
            raise exceptions.ValidationError(_form_errors(form))
        try:
            flows.manage_email.add_email(request._request, form)
        except ReauthenticationRequired:  # not configured here (ACCOUNT_REAUTHENTICATION_REQUIRED is off)
            raise exceptions.PermissionDenied(gettext("log in again first")) from None
        return Response(EmailAddressSerializer(self._addresses(), many=True).data, status=status.HTTP_202_ACCEPTED)


class ResendView(generics.GenericAPIView):
    """Mail the verification link of the account's unverified address again."""

    serializer_class = serializers.Serializer
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: _DETAIL, 400: _DETAIL, 429: _DETAIL})
    def post(self, request):
        address = (EmailAddress.objects.filter(user=request.user, verified=False).order_by("-pk").first())
        if address is None:
            raise exceptions.ValidationError({"detail": gettext("no unverified address on this account")})
        if not flows.email_verification.send_verification_email_to_address(request._request, address):
            raise exceptions.Throttled(detail="A link was sent a moment ago: try again in a few minutes.")
        return Response({"detail": gettext("verification link sent to %(address)s") % {"address": address.email}},
                        status=status.HTTP_202_ACCEPTED)


class KeySerializer(serializers.Serializer):
    key = serializers.CharField(max_length=200)


class VerifyView(generics.GenericAPIView):
    """Verify an address with the key of the link mailed to it (anyone holding the key may: it is the proof)."""

    serializer_class = KeySerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = throttles.LOGIN  # keys are long and random; this only bounds the noise

    @extend_schema(responses={200: EmailAddressSerializer, 400: _DETAIL})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        confirmation = get_emailconfirmation_model().from_key(serializer.validated_data["key"])
        address = confirmation.confirm(request._request) if confirmation is not None else None
        if address is None:
            raise exceptions.ValidationError({"key": ["unknown, expired or already used verification key"]})
        return Response(EmailAddressSerializer(address).data)


class ResetRequestSerializer(serializers.Serializer):
    email = serializers.EmailField()


class ResetRequestView(generics.GenericAPIView):
    """Mail a password reset link to `email`. The answer does not tell whether an account has that address."""

    serializer_class = ResetRequestSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = throttles.LOGIN

    @extend_schema(responses={202: _DETAIL, 429: _DETAIL})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _consume(request, "reset_password", key=serializer.validated_data["email"].lower())
        form = allauth_forms.ResetPasswordForm(data={"email": serializer.validated_data["email"]})
        if not form.is_valid():
            raise exceptions.ValidationError(_form_errors(form))
        form.save(request._request)
        return Response({"detail": gettext("if an account has this address, a reset link is on its way")},
                        status=status.HTTP_202_ACCEPTED)


_UIDB36 = re.compile(r"[0-9A-Za-z]{1,13}")


class ResetConfirmSerializer(serializers.Serializer):
    key = serializers.CharField(max_length=200, help_text="the last part of the mailed link: <uid>-<token>")
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class ResetConfirmView(generics.GenericAPIView):
    """Set a new password with the key of a reset link. The key works once; the account's API tokens are
    revoked (log in again for a new one)."""

    serializer_class = ResetConfirmSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = throttles.LOGIN

    @extend_schema(responses={200: _DETAIL, 400: _DETAIL})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _consume(request, "reset_password_from_key")
        uidb36, _, key = serializer.validated_data["key"].partition("-")
        # the shape of the links' keys (allauth's URL pattern): anything else, e.g. "---", would reach allauth's
        # form with an empty uid, which it does not expect (a 500)
        token_form = allauth_forms.UserTokenForm(data={"uidb36": uidb36, "key": key})
        if not (_UIDB36.fullmatch(uidb36) and key) or not token_form.is_valid():
            raise exceptions.ValidationError({"key": ["unknown, expired or already used reset key"]})
        user = token_form.reset_user
        password = serializer.validated_data["password"]
        form = allauth_forms.ResetPasswordKeyForm(user=user, temp_key=key,
                                                  data={"password1": password, "password2": password})
        if not form.is_valid():
            errors = _form_errors(form)
            raise exceptions.ValidationError({"password": errors.pop("password1", []) + errors.pop("password2", []),
                                              **errors})
        form.save()
        _rate_limited(flows.password_reset.finalize_password_reset(request._request, user))
        return Response({"detail": gettext("password changed; log in with it")})


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class PasswordChangeView(generics.GenericAPIView):
    """Change the signed-in account's password (the current one is asked for). API tokens keep working."""

    serializer_class = PasswordChangeSerializer
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: _DETAIL, 400: _DETAIL})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _consume(request, "change_password", user=request.user)
        data = serializer.validated_data
        form = allauth_forms.ChangePasswordForm(user=request.user, data={
            "oldpassword": data["old_password"], "password1": data["password"], "password2": data["password"]})
        if not form.is_valid():
            errors = _form_errors(form)
            raise exceptions.ValidationError({
                **({"old_password": errors.pop("oldpassword")} if "oldpassword" in errors else {}),
                **({"password": errors.pop("password1", []) + errors.pop("password2", [])}
                   if "password1" in errors or "password2" in errors else {}),
                **errors})
        form.save()
        flows.password_change.finalize_password_change(request._request, request.user)
        return Response({"detail": gettext("password changed")})
