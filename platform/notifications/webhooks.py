"""Webhook delivery: which URLs may be called (no server-side request forgery), the body's signature, one POST.

The body is signed like GitHub's `X-Hub-Signature-256`: `X-Arena-Signature-256: sha256=<hex HMAC-SHA256 of the
raw body keyed with the user's webhook secret>`. A receiver recomputes it over the bytes it got and compares in
constant time (`hmac.compare_digest`).

A URL must be http or https and every address its host resolves to must be a public one: loopback, private,
link-local (cloud metadata at 169.254.169.254), shared, reserved and multicast addresses are refused, unless
`ARENA_WEBHOOK["allow_private"]` (`ARENA_WEBHOOK_ALLOW_PRIVATE=1`; the tests set it to reach their own server).
The check runs when the URL is saved and again at each delivery, and the request goes to the address that was
checked (the host name is only the `Host` header and the TLS server name), so a name that resolves elsewhere
between the check and the connection (DNS rebinding) reaches nothing else. Redirects are not followed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

SIGNATURE_HEADER = "X-Arena-Signature-256"
USER_AGENT = "Arena-Webhook/1"


class WebhookRefused(ValueError):
    """A URL Arena will not call (its words are shown to the owner)."""


class DeliveryFailed(Exception):
    """A delivery that did not get a 2xx answer. `retry`: whether trying again later may help."""

    def __init__(self, message: str, retry: bool = True):
        super().__init__(message)
        self.retry = retry


def sign(secret: str, body: bytes) -> str:
    """The signature header's value for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str) -> bool:
    """Whether `header` is the signature of `body` (what a receiver does; the tests use it)."""
    return hmac.compare_digest(sign(secret, body), header or "")


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the checked address the request connects to


# IPv6 ranges that carry an IPv4 address inside (NAT64, IPv4-compatible): judged by that address, since a
# NAT64 or 6to4 gateway would deliver to it (64:ff9b::a9fe:a9fe is 169.254.169.254, cloud metadata).
_EMBEDDING_IPV4 = [ipaddress.ip_network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48", "::/96")]
# The only IPv6 global unicast space (RFC 4291 §2.4): `is_global` alone lets through ranges Python's table misses
# (fec0::/10, the deprecated site-local range, counts as global in Python 3.11), so an IPv6 target must be in here.
_IPV6_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")


def _allowed(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is loopback too
        elif ip.sixtofour is not None:
            ip = ip.sixtofour  # 2002:7f00:1::1 is 127.0.0.1 behind 6to4
        elif ip.teredo is not None:
            ip = ip.teredo[1]  # a Teredo address ends at its client's IPv4 address
        elif any(ip in net for net in _EMBEDDING_IPV4):
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if settings.ARENA_WEBHOOK["allow_private"]:
        return not ip.is_multicast and not ip.is_unspecified
    if isinstance(ip, ipaddress.IPv6Address) and (ip not in _IPV6_GLOBAL_UNICAST or ip.is_site_local):
        return False
    return ip.is_global and not ip.is_multicast


def check_url(url: str) -> Target:
    """The target of a webhook URL, or WebhookRefused saying why Arena will not call it."""
    if len(url) > 500:
        raise WebhookRefused("the URL is longer than 500 characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise WebhookRefused(f"not a valid URL ({exc})") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookRefused("the URL must start with http:// or https://")
    host = parts.hostname
    if not host:
        raise WebhookRefused("the URL names no host")
    if parts.username is not None or parts.password is not None:
        raise WebhookRefused("the URL may not carry a user name or password (verify the signature instead)")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise WebhookRefused(f"the host {host!r} does not resolve") from None
    addresses = [str(info[4][0]) for info in infos]  # a str for every address family asked for (typeshed: or int)
    if not addresses or not all(_allowed(a) for a in addresses):
        raise WebhookRefused(f"the host {host!r} is a private, loopback or reserved address: Arena only calls "
                             "public addresses")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, addresses[0])


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the certificate checked against the URL's host name."""

    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._target = target

    def connect(self) -> None:
        sock = socket.create_connection((self._target.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def _cut_off(conn: http.client.HTTPConnection, expired: threading.Event) -> None:
    """End a try that ran out of time: shutting the socket down wakes the read blocked on it (whatever that read
    then makes of the cut answer, the try failed: `expired`)."""
    expired.set()
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def post(url: str, secret: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST `body` (signed) to `url`; the answer's status, or DeliveryFailed. `timeout` bounds the whole try
    (connecting, sending, the answer: a server that trickles its answer a byte at a time is cut off too); only
    the first 4 KB of the answer's body are read."""
    target = check_url(url)  # again: the name may resolve elsewhere now
    conn: http.client.HTTPConnection
    if target.scheme == "https":
        conn = _PinnedHTTPSConnection(target, timeout)
    else:
        conn = http.client.HTTPConnection(target.address, target.port, timeout=timeout)
    host_header = target.host if ":" not in target.host else f"[{target.host}]"
    if target.port != (443 if target.scheme == "https" else 80):
        host_header += f":{target.port}"
    expired = threading.Event()
    deadline = threading.Timer(timeout, _cut_off, args=(conn, expired))
    deadline.daemon = True
    deadline.start()
    try:
        conn.request("POST", target.path, body=body, headers={
            "Host": host_header, "Content-Type": "application/json", "User-Agent": USER_AGENT,
            SIGNATURE_HEADER: sign(secret, body), **headers})
        response = conn.getresponse()
        response.read(4096)
        status = response.status
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out, TLS, a broken answer
        raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from None
    finally:
        deadline.cancel()
        conn.close()
    if expired.is_set():
        raise DeliveryFailed(f"no whole answer within {timeout} s")
    if 200 <= status < 300:
        return status
    # the receiver's own fault or a refusal won't change by retrying, except "too many" and "timed out"
    raise DeliveryFailed(f"HTTP {status}", retry=status >= 500 or status in (408, 429))
