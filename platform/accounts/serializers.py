"""Accounts in the API: sign-up and the current user."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from rest_framework import serializers

from accounts.adapter import USERNAME_HELP, username_problem

User = get_user_model()


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[A-Za-z0-9_.-]{3,32}$", max_length=32, error_messages={
        "invalid": USERNAME_HELP})
    password = serializers.CharField(write_only=True, min_length=8, max_length=128)
    email = serializers.EmailField(help_text="a verification link is mailed to it; uploading bot versions and "
                                             "email notifications wait until it is followed")

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(gettext("this username is taken"))
        if reason := username_problem(value):
            raise serializers.ValidationError(reason)
        return value

    def validate_email(self, value: str) -> str:
        from allauth.account.models import EmailAddress

        value = value.lower()  # allauth keeps addresses in lower case; one account per address
        if EmailAddress.objects.filter(email__iexact=value).exists() or User.objects.filter(email__iexact=value).exists():
            raise serializers.ValidationError(gettext("an account with this email address exists (log in, or reset "
                                                      "its password with POST /api/auth/password/reset/)"))
        return value

    def validate(self, attrs):
        try:
            validate_password(attrs["password"], User(username=attrs["username"]))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class UserSerializer(serializers.ModelSerializer):
    """The signed-in account (`/api/auth/me/`): its own email address and whether uploads wait for its
    verification (`accounts.emails`)."""

    email_verification_pending = serializers.SerializerMethodField()
    language = serializers.ChoiceField(
        choices=[("", "")] + [(code, code) for code, _name in settings.LANGUAGES], allow_blank=True, required=False,
        help_text="The language the site and its emails speak to this account (a code of the site's languages; "
                  "\"\": none chosen, the browser's for pages and English for emails). PATCH it to change it.")

    class Meta:
        model = User
        fields = ["id", "username", "email", "email_verification_pending", "is_staff", "date_joined", "language"]
        read_only_fields = ["id", "username", "email", "is_staff", "date_joined"]

    def to_representation(self, user) -> dict:
        from accounts.language import language_of

        data = super().to_representation(user)
        data["language"] = language_of(user)
        return data

    def update(self, user, validated_data):
        from accounts.language import remember

        if "language" in validated_data:
            remember(user, validated_data["language"])
            user._arena_language = validated_data["language"]  # language_of's cache of this request
        return user

    def get_email_verification_pending(self, user) -> bool:
        from accounts.emails import verification_pending

        return verification_pending(user)
