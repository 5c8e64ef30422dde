"""Sign-up, log-in (an API token for a username or email address and a password) and the current account.

Sign-up takes an email address and mails it a verification link (django-allauth; `accounts.emails` says what
waits for the verification); the other account flows (verify, reset, change) are in `accounts.account_views`.

Tokens are stored hashed (`accounts.tokens`): the key is in the response of sign-up and log-in and nowhere
else. Each log-in makes a new token (the newest `MAX_TOKENS_PER_USER` work). Failed log-ins count towards
django-axes' lock-out like the web and admin forms'; sign-up and log-in are also limited per client address.
Staff accounts are made in the Django admin (`manage.py up` creates the first one)."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, permissions, serializers, status
from rest_framework.response import Response

from accounts import deletion, throttles, tokens
from accounts import serializers as s


class SignupView(generics.GenericAPIView):
    """Create an account; answers with its API token."""

    serializer_class = s.SignupSerializer
    permission_classes = [permissions.AllowAny]
    throttle_classes = throttles.SIGNUP

    @extend_schema(responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        from allauth.account.internal.flows.email_verification import send_verification_email_to_address
        from allauth.account.models import EmailAddress

        from accounts.models import SelfSignup

        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            user = get_user_model().objects.create_user(data["username"], data["email"], data["password"])
            address = EmailAddress.objects.create(user=user, email=data["email"], primary=True, verified=False)
            SelfSignup.objects.create(user=user)  # held back until verified (accounts.emails)
        send_verification_email_to_address(request._request, address, signup=True)
        return Response({"id": user.pk, "username": user.username, "email": address.email, "email_verified": False,
                         "token": tokens.issue(user)}, status=status.HTTP_201_CREATED)


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=254, help_text="the username or the account's email address")
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class LoginView(generics.GenericAPIView):
    """Exchange a username (or the account's email address) and password for a new API token (send it as `Authorization: Token …`). Too many
    failures from one address for one username lock that pair out for a while (429)."""

    serializer_class = LoginSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes = []  # a stale token in the header must not stop a log-in
    throttle_classes = throttles.LOGIN

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # The plain Django request: django-axes records the attempt (and a lock-out) on it, and its middleware
        # turns a lock-out into a 429 whatever this view answers.
        user = authenticate(request._request, username=serializer.validated_data["username"],
                            password=serializer.validated_data["password"])
        if user is None:
            raise exceptions.ValidationError({"non_field_errors": ["Unable to log in with provided credentials."]})
        # No session is made, but this is a log-in: axes resets the failure count, Django sets last_login.
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response({"token": tokens.issue(user)})


class MeView(deletion.DeleteMeMixin, generics.RetrieveUpdateAPIView):
    """The current account; `PATCH` changes its language (an unknown code: 400); `DELETE` deletes it
    (`accounts.deletion`)."""

    serializer_class = s.UserSerializer
    permission_classes = [permissions.IsAuthenticated]
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_object(self):
        return self.request.user
