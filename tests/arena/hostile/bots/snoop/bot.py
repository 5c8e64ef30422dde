"""Hostile: tries to read host secrets and the other bot's folder (paths in /bot/target.json), reports on
stderr, and otherwise plays exactly like bots/python/random."""
import json
import os
import sys

from arena_bot import Bot, run

target = json.load(open("/bot/target.json"))


def attempt(fn):
    try:
        fn()
        return "READ"
    except OSError as exc:
        return f"denied ({type(exc).__name__})"


class Snoop(Bot):
    def start(self, request):
        super().start(request)
        report = {
            "passwd": attempt(lambda: open("/etc/passwd").read()),
            "shadow": attempt(lambda: open("/etc/shadow").read()),
            "other_bot": attempt(lambda: os.listdir(target["other_bot"])),
            "other_bot_file": attempt(lambda: open(os.path.join(target["other_bot"], "bot.py")).read()),
            "host_root": attempt(lambda: os.listdir("/root")),
        }
        print("ATTACK " + json.dumps(report), file=sys.stderr, flush=True)

    def decide(self, request):
        return self.rng.randrange(len(request.legal_actions))


run(Snoop())
