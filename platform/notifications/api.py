"""`GET/PATCH /api/auth/me/notifications/`: the signed-in owner's notification preferences."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .events import ALL


class PreferencesSerializer(serializers.Serializer):
    events = serializers.DictField(child=serializers.BooleanField(), required=False,
                                   help_text=f"Event name → on/off; names left out keep their state. Events: {ALL}")
    email = serializers.BooleanField(required=False, help_text="Send the chosen events by email.")
    email_address = serializers.CharField(required=False, allow_blank=True, max_length=254,
                                          help_text="The account's email address (empty: no email).")
    webhook_url = serializers.CharField(required=False, allow_blank=True, max_length=500,
                                        help_text="http(s) URL POSTed a signed JSON body per event (empty: none).")
    webhook_secret = serializers.CharField(read_only=True,
                                           help_text="Key of the body's HMAC-SHA256 in X-Arena-Signature-256.")
    rotate_secret = serializers.BooleanField(required=False, write_only=True,
                                             help_text="Make a new webhook secret (the old one stops signing).")


class NotificationPreferencesView(APIView):
    """Which events Arena tells you of, by email and by webhook."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=PreferencesSerializer)
    def get(self, request):
        return Response(services.as_dict(request.user))

    @extend_schema(request=PreferencesSerializer, responses=PreferencesSerializer)
    def patch(self, request):
        given = PreferencesSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        try:
            prefs = services.update(request.user, **given.validated_data)
        except services.PreferencesRefused as exc:
            return Response(exc.errors, status=status.HTTP_400_BAD_REQUEST)
        return Response(services.as_dict(request.user, prefs))
