"""Hostile: tries to write outside /tmp (its own folder, /usr, /, the other bot's folder, a host path named in
/bot/target.json), fills /tmp and its socket directory, reports on stderr, and otherwise plays exactly like
bots/python/random."""
import json
import os
import sys

from arena_bot import Bot, run

target = json.load(open("/bot/target.json"))


def attempt(path):
    try:
        with open(path, "w") as f:
            f.write("vandalised")
        return "WRITTEN"
    except OSError as exc:
        return f"denied ({type(exc).__name__})"


def fill(directory, limit=1 << 30):
    written = 0
    try:
        with open(os.path.join(directory, "fill"), "wb") as f:
            while written < limit:
                f.write(b"\0" * (1 << 16))
                f.flush()
                written += 1 << 16
    except OSError as exc:
        return f"stopped at {written >> 20} MB ({type(exc).__name__})"
    return "FILLED 1 GB"


class Vandal(Bot):
    def start(self, request):
        super().start(request)
        report = {
            "own_folder": attempt("/bot/vandalised.txt"),
            "usr": attempt("/usr/vandalised.txt"),
            "root": attempt("/vandalised.txt"),
            "other_bot": attempt(os.path.join(target["other_bot"], "vandalised.txt")),
            "host_path": attempt(target["host_path"]),
            "tmp": fill("/tmp"),
            "socket_dir": fill(os.path.dirname(os.environ["ARENA_SOCKET"])),
        }
        os.unlink("/tmp/fill")  # leave room for the gRPC runtime's own needs
        print("ATTACK " + json.dumps(report), file=sys.stderr, flush=True)

    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


run(Vandal())
