"""What Arena keeps and derives on embedded defaults (`make up`: no DATABASE_URL, everything under `var/`).

- `secret_key(var_dir)`: the instance's SECRET_KEY, made at random on first use and kept in `var/secret-key`
  (mode 0600, in a 0700 `var/`), so sessions and tokens signed by one start stay valid after a restart and the key
  is never a value printed in the source.
- `allowed_hosts(bind)`: ALLOWED_HOSTS for the address the web server listens on (`ARENA_BIND`).
- `make_private(path)`: owner-only modes for `var/` and the files in it that hold secrets or data.

The settings module imports it before Django is set up: nothing here needs Django's settings.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

DEFAULT_BIND = "127.0.0.1:8000"  # this machine only; ARENA_BIND=0.0.0.0:8000 opens the server to the network
SECRET_KEY_FILE = "secret-key"
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]


class SecretKeyError(ImproperlyConfigured):
    """The kept secret key is unusable (empty); the message says what to do."""


def secret_key(var_dir: Path) -> str:
    """The key in `var_dir/secret-key`, made (and `var_dir` with it, mode 0700) when there is none yet.

    Several processes may start at once (web server, worker, beat): the key is written to a private temporary
    file and hard-linked into place, so every process reads the same whole key and none overwrites another's."""
    path = Path(var_dir) / SECRET_KEY_FILE
    try:
        return _secret_key(path)
    except OSError as exc:
        raise SecretKeyError(f"cannot keep a secret key in {path} ({exc.strerror}): run as the owner of "
                             f"{var_dir}, point ARENA_VAR_DIR to a folder of yours, or set ARENA_SECRET_KEY") from exc


def _secret_key(path: Path) -> str:
    var_dir = path.parent
    if not path.exists():
        Path(var_dir).mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f".{SECRET_KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(50) + "\n")  # 67 characters of 64 kinds: Django's W009 is satisfied
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(tmp, path)
            except FileExistsError:  # another process made it first: use theirs
                pass
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_text().strip()
    if not key:
        raise SecretKeyError(f"{path} is empty: delete it and Arena makes a new secret key on the next start "
                             "(accounts' sessions are then logged out)")
    return key


def split_bind(bind: str) -> tuple[str, str]:
    """(host, port) of `addr:port`, `[ipv6]:port` or a bare `port` (runserver's forms; a bare port listens on
    127.0.0.1, as runserver does)."""
    bind = bind.strip()
    if bind.isdigit():
        return "127.0.0.1", bind
    host, _, port = bind.rpartition(":")
    return host.strip("[]") or "127.0.0.1", port


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    ip = _ip(host)
    return host == "localhost" or (ip is not None and ip.is_loopback)


def is_unspecified(host: str) -> bool:
    """True for the all-interfaces address (0.0.0.0, ::): a server on it is open to the network."""
    ip = _ip(host)
    return ip is not None and ip.is_unspecified


def opened_without_names(bind: str, env: dict | os._Environ) -> str | None:
    """What to tell the operator who opens Arena to every interface without naming the hosts it is reached by
    (ARENA_ALLOWED_HOSTS); None when the server is on one address or the names are given."""
    if not is_unspecified(split_bind(bind)[0]) or env.get("ARENA_ALLOWED_HOSTS"):
        return None
    return (f"ARENA_BIND={bind} opens Arena to the network: say the host names (and addresses) people reach it "
            "by, comma separated, in ARENA_ALLOWED_HOSTS (e.g. ARENA_ALLOWED_HOSTS=arena.lan,192.168.1.20), and "
            "set ARENA_SITE_URL to the address mailed links should use (e.g. http://arena.lan:8000). Arena answers "
            "no other Host: a request's Host would otherwise choose where password-reset links point")


def allowed_hosts(bind: str) -> list[str]:
    """The Host headers a server listening on `bind` answers: the loopback names for a loopback address; the
    address (or name) itself for one interface. For all interfaces (0.0.0.0 or ::) the names the machine is reached
    by are not known here, and answering any Host would let a request choose the address Arena's mails link to:
    only the loopback names, until ARENA_ALLOWED_HOSTS names the others (`up` asks for them: `opened_without_names`)."""
    host, _ = split_bind(bind)
    if is_loopback(host) or is_unspecified(host):
        return list(LOOPBACK_HOSTS)
    ip = _ip(host)
    if ip is not None and ip.version == 6:
        return [f"[{ip}]"]
    return [host]


def make_private(path: Path, mode: int) -> None:
    """chmod `path` to `mode` if it exists (owner-only modes: 0700 for folders, 0600 for files)."""
    try:
        os.chmod(path, mode)
    except FileNotFoundError:
        pass
