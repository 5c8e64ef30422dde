"""Sign-up, log-in (an API token for a username and password) and the current account.

Staff accounts are made in the Django admin (`manage.py up` creates the first one)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from accounts import serializers as s


class SignupView(generics.GenericAPIView):
    """Create an account; answers with its API token."""

    serializer_class = s.SignupSerializer
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signup"

    @extend_schema(responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = get_user_model().objects.create_user(data["username"], data.get("email", ""), data["password"])
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"id": user.pk, "username": user.username, "token": token.key},
                        status=status.HTTP_201_CREATED)


class LoginView(ObtainAuthToken):
    """Exchange username and password for the account's API token (send it as `Authorization: Token …`)."""


class MeView(generics.RetrieveAPIView):
    serializer_class = s.UserSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_object(self):
        return self.request.user
