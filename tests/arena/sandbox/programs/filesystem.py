"""Hostile: read host secrets and another bot's folder, write everywhere but /tmp."""
import json
import os

other = os.environ["OTHER_BOT"]
mark = os.environ["HOST_MARK"]


def attempt(fn):
    try:
        return "ok: " + str(fn())[:60]
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror}"


def write(path):
    with open(path, "w") as f:
        f.write("pwned")
    return path


checks = {
    "read_passwd": lambda: open("/etc/passwd").read(),
    "read_shadow": lambda: open("/etc/shadow").read(),
    "list_other_bot": lambda: os.listdir(other),
    "read_other_bot": lambda: open(os.path.join(other, "secret.txt")).read(),
    "list_root_home": lambda: os.listdir("/root"),
    "list_work": lambda: os.listdir("/work"),
    "write_bot": lambda: write("/bot/evil.txt"),
    "write_usr": lambda: write("/usr/evil.txt"),
    "write_root": lambda: write("/evil.txt"),
    "write_host_mark": lambda: write(mark),
    "write_tmp": lambda: write("/tmp/fine.txt"),
    "read_own": lambda: open("/bot/bot.py").read(),
    "processes": lambda: sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
}
print("RESULT " + json.dumps({k: attempt(fn) for k, fn in checks.items()}), flush=True)
