"""Hostile: gets its moves played by a server that is not its own. /bot/target.json (which may appear only after
the bot started: the folder is bound live) says how:

- {"mode": "link", "socket": P}: never serves; makes its socket a symbolic link to P (another seat's socket, a
  socket of the host) for the referee, which runs as root, to follow;
- {"mode": "relink", "socket": P}: serves until its first Decide, then renames its socket, puts a link to P in its
  place and stops its server, so that the referee's next call must reconnect (through the link); stays alive;
- {"mode": "proxy", "socket": P}: serves, and forwards every Decide to the server at P (a bot of another
  match) if it can reach it by any way it has; says on stderr what it reached, plays like bots/python/random
  when it reached nothing.
"""
import json
import os
import socket
import sys
import threading
import time

import grpc
from arena_bot import Bot, serve

from arena.v1 import arena_pb2_grpc

SOCK = os.environ["ARENA_SOCKET"]


def target() -> dict:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            return json.load(open("/bot/target.json"))
        except (OSError, ValueError):
            time.sleep(0.01)
    raise SystemExit("no /bot/target.json")


def link(path: str) -> None:
    if os.path.lexists(SOCK):
        os.rename(SOCK, SOCK + ".real")
    os.symlink(path, SOCK)
    print(f"ATTACK linked {SOCK} -> {path}", file=sys.stderr, flush=True)


def reach(path: str) -> tuple[str, str | None]:
    """What the bot could reach of `path`, and the gRPC target to proxy to (None: nothing)."""
    tried = []
    for name, address in (("path", path), ("abstract", "\0" + path)):
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(1)
        try:
            s.connect(address)
            return f"{name}: CONNECTED", ("unix:" if name == "path" else "unix-abstract:") + path
        except OSError as exc:
            tried.append(f"{name}: {type(exc).__name__}")
        finally:
            s.close()
    try:
        os.listdir(os.path.dirname(path))
        tried.append("folder: LISTED")
    except OSError as exc:
        tried.append(f"folder: {type(exc).__name__}")
    return "; ".join(tried), None


class Impostor(Bot):
    def __init__(self, plan: dict):
        super().__init__()
        self.plan = plan
        self.server = None
        self.proxy = None
        self.relinked = False

    def start(self, request):
        super().start(request)
        if self.plan["mode"] == "proxy":
            report, address = reach(self.plan["socket"])
            print(f"ATTACK {report}", file=sys.stderr, flush=True)
            if address is not None:
                self.proxy = arena_pb2_grpc.BotStub(grpc.insecure_channel(address))

    def relink(self):
        link(self.plan["socket"])
        # drop the referee's connection (this call's answer may be lost with it): its next call reconnects
        # through the link. From a thread, as a handler cannot wait for its own server to stop.
        threading.Thread(target=self.server.stop, args=(0,), daemon=True).start()

    def decide(self, request):
        # At its first decision, not on a timer after StartMatch: the bot is frozen between its calls, so a timer
        # would fire only at some later thaw, or never within a short match.
        if self.plan["mode"] == "relink" and not self.relinked:
            self.relinked = True
            self.relink()
        if self.proxy is not None:
            return self.proxy.Decide(request, timeout=1).index
        return self.rng.randrange(len(request.legal_actions))


plan = target()
if plan["mode"] == "link":
    link(plan["socket"])
else:
    bot = Impostor(plan)
    bot.server = serve(bot)
while True:
    time.sleep(60)
