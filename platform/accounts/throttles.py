"""Rate limits per user and per client address (`accounts.client_ip`: spoofed X-Forwarded-For doesn't escape).

Each limited action has two scopes, `<action>.user` and `<action>.address`, with rates in
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (see platform/README.md). The rates are read on every request, so
changed settings apply at once. Counters live in Django's cache (Redis in deployments).
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from accounts.client_ip import client_ip


class _Throttle(SimpleRateThrottle):
    scope: str = ""

    def __init__(self) -> None:  # SimpleRateThrottle reads the rate at construction; so do we, but freshly
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self) -> str | None:
        # the stubs type the rates as numbers; DRF's are "N/period" strings
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # type: ignore[return-value]


class AddressThrottle(_Throttle):
    """Counts requests per client address."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request) or "unknown"}


class UserThrottle(_Throttle):
    """Counts requests per signed-in user (anonymous requests are left to the address throttle)."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


def pair(action: str) -> list[type[_Throttle]]:
    """The user and address throttles of an action, e.g. `pair("upload")`."""
    return [type(f"{action.title()}UserThrottle", (UserThrottle,), {"scope": f"{action}.user"}),
            type(f"{action.title()}AddressThrottle", (AddressThrottle,), {"scope": f"{action}.address"})]


SIGNUP = [type("SignupAddressThrottle", (AddressThrottle,), {"scope": "signup.address"})]
LOGIN = [type("LoginAddressThrottle", (AddressThrottle,), {"scope": "login.address"})]
UPLOAD = pair("upload")
CHALLENGE = pair("challenge")
VERSION_TEST = pair("versiontest")
DELETE_ACCOUNT = pair("deleteaccount")  # each try checks a password: bounded like log-ins
EXPORT = pair("export")  # an export reads every match of the person's bots
TEAMS = pair("teams")  # making teams and invitations: rows (and names) anyone could otherwise make without end
TABLES = pair("tables")  # sitting down to play: each table or match of people holds a worker's thread and bots
TABLE_JOIN = pair("tablejoin")  # taking a seat through an invitation: each try is a locked transaction


def throttled(request: Any, throttles: list[type[_Throttle]]) -> float | None:
    """For plain Django views: None when the request may go on, else the seconds to wait."""
    for cls in throttles:
        throttle = cls()
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # no APIView here: the rate needs none
            return throttle.wait() or 1.0
    return None
