"""A well-behaved server: listen on ARENA_SOCKET, answer each connection with its view of the world."""
import json
import os
import socket

server = socket.socket(socket.AF_UNIX)
server.bind(os.environ["ARENA_SOCKET"])
server.listen()
while True:
    conn, _ = server.accept()
    try:  # the referee's readiness probe connects and hangs up at once
        conn.sendall(json.dumps({"uid": os.getuid(), "env": dict(os.environ), "cwd": os.getcwd()}).encode())
    except OSError:
        pass
    conn.close()
