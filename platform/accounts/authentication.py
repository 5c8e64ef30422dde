"""DRF authentication by `Authorization: Token <key>` against hashed tokens (`accounts.tokens`)."""

from __future__ import annotations

from rest_framework import authentication, exceptions

from accounts import tokens


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and error messages; the lookup is by the key's digest, never the key itself."""

    def authenticate_credentials(self, key):
        user = tokens.user_for(key)
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return (user, None)
