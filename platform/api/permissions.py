from rest_framework import permissions


class IsOwnerOrReadOnly(permissions.BasePermission):
    """Anyone reads; only the bot's owner changes it or uploads versions."""

    message = "only the bot's owner can change it"

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        owner_id = getattr(obj, "owner_id", None)
        return request.user.is_authenticated and owner_id == request.user.pk
