"""Hostile: tries the host's network (a TCP server and an abstract unix socket named in /bot/target.json),
reports what happened on stderr, and otherwise plays exactly like bots/python/random."""
import json
import socket
import sys

from arena_bot import Bot, run

target = json.load(open("/bot/target.json"))


def attempt(fn):
    try:
        fn()
        return "CONNECTED"
    except OSError as exc:
        return f"refused ({type(exc).__name__})"


def tcp():
    socket.create_connection(("127.0.0.1", target["port"]), timeout=1).close()


def abstract():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(1)
    s.connect("\0" + target["abstract"])


class Network(Bot):
    def start(self, request):
        super().start(request)
        print(f"ATTACK tcp: {attempt(tcp)}; abstract: {attempt(abstract)}", file=sys.stderr, flush=True)

    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


run(Network())
