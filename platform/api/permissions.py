from rest_framework import permissions


class IsOwnerOrReadOnly(permissions.BasePermission):
    """Anyone reads; only who may play the bot (its owner; a team bot: the team's members,
    `botregistry.ownership.can_play`) changes it or uploads versions."""

    message = "only the bot's owner (a team bot: the team's members) can change it"

    def has_object_permission(self, request, view, obj) -> bool:
        from botregistry.ownership import can_play

        if request.method in permissions.SAFE_METHODS:
            return True
        if getattr(obj, "retired_at", None) is not None:
            self.message = "this bot is retired: it takes no new versions or changes"
            return False
        return can_play(request.user, obj)
