"""Hostile: reach the host over TCP on 127.0.0.1 and over a host abstract unix socket."""
import json
import os
import socket


def attempt(fn):
    try:
        fn()
        return "connected"
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


def tcp():
    socket.create_connection(("127.0.0.1", int(os.environ["TEST_PORT"])), timeout=1).close()


def abstract():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(1)
    s.connect("\0" + os.environ["TEST_ABSTRACT"])


print("RESULT " + json.dumps({"tcp": attempt(tcp), "abstract": attempt(abstract),
                              "interfaces": [name for _, name in socket.if_nameindex()]}), flush=True)
