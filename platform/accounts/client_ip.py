"""The address a request really comes from, for throttles and log-in lockouts.

`X-Forwarded-For` is written by whoever sends the request, so it is believed only when the connection comes
from a proxy of ours (`ARENA_TRUSTED_PROXIES`: addresses or networks, e.g. `127.0.0.1,10.0.0.0/8`; empty by
default, so the header is ignored). Then the client is the right-most address in the header that is not one of
our proxies: entries to its left were written by the client and may be anything.
"""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in spec if item.strip())


def trusted_proxies() -> tuple[IPNetwork, ...]:
    spec = getattr(settings, "ARENA_TRUSTED_PROXIES", ()) or ()
    if isinstance(spec, str):
        spec = spec.split(",")
    return _networks(tuple(spec))


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def is_trusted_proxy(address: str) -> bool:
    ip = _parse(address)
    return ip is not None and any(ip in net for net in trusted_proxies())


def client_ip(request: Any) -> str:
    """The client's address: REMOTE_ADDR, or, when that is a trusted proxy, the right-most untrusted address of
    X-Forwarded-For. Works on Django's and DRF's requests (axes' `AXES_CLIENT_IP_CALLABLE` too)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    if not is_trusted_proxy(remote):
        return remote
    hops = [hop.strip() for hop in (meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if hop.strip()]
    for hop in reversed(hops):
        ip = _parse(hop)
        if ip is None:
            return remote  # our proxy wrote something we can't read: count the request against the proxy
        if not is_trusted_proxy(hop):
            return str(ip)
    return remote
