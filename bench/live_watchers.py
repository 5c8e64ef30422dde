"""Many live watchers on one web process: what they cost ordinary pages, and how fast each decision reaches them.

    python bench/live_watchers.py [--watchers 200] [--threads 256] [--pages 120] [--rate 5] [--rounds 3]
                                  [--before REV ...] [--browser]

Runs gunicorn as docker-compose does (gthread), one process, against a PostgreSQL database of its own
(`bench_live`) and the machine's Redis (at the ordinary priority even when the bench, the load, runs under
`nice`); publishes a random Minos 4p game on a running match's live stream as the worker does
(`matches.live.Broadcast`, narration included) at `--rate` decisions a second, a match of its own each round;
then, in `--rounds` rounds:
1. times `--pages` requests of an ordinary page (the home page, which queries the database) with no watcher and
   as many with `--watchers` watchers holding the match's event stream open, in turns (the host's own swings
   fall on both): the ratio is the slowdown watchers cause;
2. measures the CPU time (user + system) the web process spends on the watchers over `--quiet` seconds with no
   page asked, once every watcher caught up: per second, and per frame a watcher received (a CPU time: the
   host's load changes it far less than the pages' times);
3. measures, for each watcher, each decision's delay from the moment the worker publishes it to its bytes arriving
   at the watcher (server side: Redis, the process's reader, the event stream, the socket): median and p95;
4. with `--browser`, the delay to a headless Chromium showing it (watch.js draws the frame: end to end);
5. asks for one stream more than the process's cap (`ARENA_LIVE_STREAMS`): it must get 503 with Retry-After.
With `--before REV` (repeatable) the platform as it was at git revision REV (its web code, this checkout's
engines) is served beside this one, and every round measures each in turn: before/after figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench")]

from _platform_setup import setup_django  # noqa: E402

INDEX = re.compile(rb'"index":(\d+)')
#: The seats of the Minos game published: 4 (~500 decisions, ~100 s at 5 a second: longer than a round).
PLAYERS = 4


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_match() -> int:
    from django.contrib.auth import get_user_model

    from botregistry.models import Bot, BotVersion
    from matches.models import Match, Participant

    owner, _ = get_user_model().objects.get_or_create(username="bench-live")
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, rated=False, game="minos",
                                 params={"players": PLAYERS}, seed=random.randrange(1 << 40),
                                 status=Match.Status.RUNNING)
    for seat in range(PLAYERS):
        bot, _ = Bot.objects.get_or_create(owner=owner, name=f"bench-live-{seat}", game="minos")
        version, _ = BotVersion.objects.get_or_create(bot=bot, number=1, defaults={
            "status": BotVersion.Status.READY, "sha256": "b" * 64, "package_dir": "x"})
        Participant.objects.create(match=match, seat=seat, bot=bot, version=version)
    return int(match.pk)


def _unniced() -> None:
    """The server at the ordinary priority when the bench (its load) runs under `nice` (root may raise it back)."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    except OSError:
        pass


class Server:
    """gunicorn (gthread, one process) serving the platform from `platform_dir` (its static files collected first,
    as the image does)."""

    def __init__(self, platform_dir: Path, threads: int, cap: int, env: dict[str, str]) -> None:
        self.port = free_port()
        # its log in a file (a pipe nobody reads fills up, and then every thread that logs waits on it for good)
        self.log = tempfile.NamedTemporaryFile(prefix="bench-live-gunicorn-", suffix=".log", delete=False)
        subprocess.run([sys.executable, str(platform_dir.parent / "manage.py"), "collectstatic", "--noinput",
                        "-v", "0"], env={**env, "PYTHONPATH": str(ROOT)}, check=True, cwd=platform_dir.parent)
        self.proc = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "--chdir", str(platform_dir), "--bind",
             f"127.0.0.1:{self.port}", "--workers", "1", "--worker-class", "gthread", "--threads", str(threads),
             "--timeout", "300", "--log-level", "warning", "arena_site.wsgi"],
            env={**env, "ARENA_LIVE_STREAMS": str(cap), "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True, preexec_fn=_unniced)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2)
                return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError("gunicorn did not start: " + Path(self.log.name).read_text(errors="replace")[-3000:])

    def stop(self) -> None:
        errors = Path(self.log.name).read_text(errors="replace")
        if "Traceback" in errors or "Error" in errors:
            print(f"  the server logged errors ({self.log.name}):\n" + errors[-1500:])
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


class Publisher(threading.Thread):
    """A random Minos game published on match `match_id`'s stream at `rate` decisions a second; `sent[i]` is when
    frame i was handed to the publisher."""

    def __init__(self, match_id: int, rate: float) -> None:
        super().__init__(daemon=True)
        self.match_id, self.rate = match_id, rate
        self.sent: dict[int, float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        from arena import games
        from matches import live

        state = games.load("minos", players=PLAYERS).new_state(random.randrange(1 << 30))
        out = live.Broadcast(self.match_id, names=[f"bench-live-{s} v1" for s in range(PLAYERS)])
        self.sent[0] = time.time()
        out.start(state)
        rng = random.Random(1)
        i = 0
        while not self.stop.is_set() and not state.is_terminal():
            time.sleep(1 / self.rate)
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            events = state.apply(action)
            self.sent[i + 1] = time.time()
            out.recorded(i, {"seat": seat, "action": str(action), "events": events, "fault": None,
                             "substitute": False})
            out.decided(i, state)
            i += 1
        if state.is_terminal():
            print(f"  (the game published ended after {i} decisions, before its round did: a round's last "
                  "figures had fewer frames)")
        out.end()


class Watchers(threading.Thread):
    """`n` EventSource-like clients of the match's stream, read by one thread (epoll): the arrival time of each
    frame index at each. (One thread for all: the clients share the machine's cores with the server measured.)"""

    def __init__(self, port: int, match_id: int, n: int, pause_s: float = 0.005) -> None:
        super().__init__(daemon=True)
        self.port, self.match_id, self.n, self.pause_s = port, match_id, n, pause_s
        self.got: list[dict[int, float]] = [{} for _ in range(n)]
        self.status = [0] * n
        self.connected = [0.0] * n
        self.socks: list[socket.socket] = []
        self.stop = threading.Event()

    def run(self) -> None:
        import selectors

        sel = selectors.DefaultSelector()
        tails = [b""] * self.n
        for k in range(self.n):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
            sock.sendall(f"GET /matches/{self.match_id}/live/ HTTP/1.1\r\nHost: localhost\r\n"
                         f"Accept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.connected[k] = time.time()
            self.socks.append(sock)
            sel.register(sock, selectors.EVENT_READ, k)
            time.sleep(self.pause_s)
        while not self.stop.is_set():
            for key, _ in sel.select(timeout=0.5):
                k = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    chunk = b""
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                now = time.time()
                if not self.status[k]:
                    self.status[k] = int(chunk.split(b" ", 2)[1])
                buf = tails[k] + chunk
                for m in INDEX.finditer(buf):
                    self.got[k].setdefault(int(m.group(1)), now)
                tails[k] = buf[-64:]
        for sock in self.socks:
            sock.close()


def time_pages(port: int, n: int) -> list[float]:
    """`n` requests of the home page, one after the other: each one's time (ms); a failed one (an error, or no
    answer within 30 s) counts as 30 s."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as resp:
                resp.read()
            out.append((time.perf_counter() - t) * 1000)
        except OSError as exc:
            print(f"  a page failed: {exc}")
            out.append(30_000.0)
            if len([x for x in out if x >= 30_000]) >= 3:
                break  # starved: no need to wait for the rest
    return out


def browser_delays(port: int, match_id: int, publisher: Publisher, seconds: float) -> list[float]:
    """Open the match page in headless Chromium and note when each frame is drawn (watch.js sets data-index)."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=opts)
    try:
        driver.get(f"http://127.0.0.1:{port}/matches/{match_id}/")
        driver.execute_script("""
            window.__drawn = {};
            const root = document.querySelector('[data-live-watch]');
            new MutationObserver(() => { window.__drawn[root.dataset.index] ??= Date.now(); })
              .observe(root, {attributes: true, attributeFilter: ['data-index']});""")
        time.sleep(seconds)
        drawn = driver.execute_script("return window.__drawn")
        if not drawn:
            print("  Chromium drew nothing:", driver.execute_script("const r = document.querySelector('[data-live-watch]'); return r ? JSON.stringify(r.dataset) + r.querySelector('[data-status]').textContent : document.title"))
    finally:
        driver.quit()
    # a frame drawn within the same animation frame as a later one is never shown alone: only those drawn count
    return [t / 1000 - publisher.sent[int(i)] for i, t in drawn.items() if int(i) in publisher.sent]


def db_connections() -> int:
    """The connections to the benchmark's database now (the web process's; this process closes its own first)."""
    from django.db import connection

    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("select count(*) - 1 from pg_stat_activity where datname = current_database()")
        n = int(cursor.fetchone()[0])
    connection.close()
    return n


def server_cpu(server: Server) -> float:
    """CPU seconds (user + system) the server's worker process used so far."""
    workers = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True).stdout.split()
    total = 0.0
    for pid in workers:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Measured:
    """One platform's figures over the rounds."""

    def __init__(self, label: str, server: Server) -> None:
        self.label, self.server = label, server
        self.alone: list[float] = []
        self.crowded: list[float] = []
        self.delays: list[float] = []
        self.drawn: list[float] = []
        self.statuses: list[int] = []
        self.cpu_s = 0.0  # the web process's CPU over the quiet windows with the watchers on ...
        self.quiet_s = 0.0  # ... their length ...
        self.delivered = 0  # ... and the frames that reached the watchers meanwhile
        self.connections = 0
        self.one_more = 0


def run(platforms: list[tuple[str, Path]], args: argparse.Namespace, env: dict[str, str]) -> dict[str, dict]:
    """Every platform served at once, measured in turns within each round (the busy host's swings fall on all)."""
    measured: list[Measured] = []
    publisher: Publisher | None = None
    watchers: Watchers | None = None
    try:
        for label, platform_dir in platforms:  # one more stream than the watchers: the browser's, then a probe
            measured.append(Measured(label, Server(platform_dir, args.threads, args.watchers + 1, env)))
        for m in measured:
            time_pages(m.server.port, 5)  # warm-up
        block = max(1, args.pages // args.rounds)
        for r in range(args.rounds):
            # a match of its own each round: what a newcomer catches up on stays a match's length
            match_id = make_match()
            publisher = Publisher(match_id, args.rate)
            publisher.start()
            for m in (measured if r % 2 == 0 else measured[::-1]):
                port = m.server.port
                m.alone += time_pages(port, block)
                watchers = Watchers(port, match_id, args.watchers)
                watchers.start()
                time.sleep(args.watchers * 0.005 + 2)
                caught_up = time.monotonic() + 30  # each has what was published before it came
                while time.monotonic() < caught_up and any(
                        max(got, default=-1) < max(publisher.sent) - 2 for got in watchers.got):
                    time.sleep(0.2)
                # the watchers alone, no page asked: what they cost the process (a CPU time: the host's load
                # slows it little)
                cpu, t0 = server_cpu(m.server), time.time()
                time.sleep(args.quiet)
                m.cpu_s += server_cpu(m.server) - cpu
                m.quiet_s += time.time() - t0
                m.delivered += sum(1 for got in watchers.got for i, t in got.items()
                                   if t0 <= t < t0 + args.quiet and publisher.sent.get(i, 0) >= t0 - 0.5)
                if r == 0 and args.browser:
                    m.drawn = browser_delays(port, match_id, publisher, 12)
                m.crowded += time_pages(port, block)
                m.connections = max(m.connections, db_connections())
                if r == args.rounds - 1:
                    extra = Watchers(port, match_id, 3, pause_s=0.5)  # up to the cap, and more
                    extra.start()
                    time.sleep(4)
                    extra.stop.set()
                    extra.join(5)
                    m.one_more = extra.status[-1]
                watchers.stop.set()
                watchers.join(5)
                # the decisions published once a watcher was connected (those before reach it at once: its catch-up)
                m.delays += [(t - publisher.sent[i]) * 1000 for got, since in zip(watchers.got, watchers.connected)
                             for i, t in got.items() if i in publisher.sent and publisher.sent[i] > since + 1]
                m.statuses += watchers.status
                time.sleep(3)  # (a closed stream is let go at its next write)
            publisher.stop.set()
            publisher.join(15)
        results = {}
        for m in measured:
            ok = sum(1 for status in m.statuses if status == 200) // args.rounds
            out = {"pages_alone_p50": statistics.median(m.alone), "pages_alone_p95": pct(m.alone, 0.95),
                   "pages_crowded_p50": statistics.median(m.crowded), "pages_crowded_p95": pct(m.crowded, 0.95),
                   "watchers_ok": ok, "delay_p50": pct(m.delays, 0.5), "delay_p95": pct(m.delays, 0.95),
                   "one_more_status": m.one_more, "db_connections": m.connections,
                   "watchers_cpu_ms_per_s": 1000 * m.cpu_s / max(m.quiet_s, 1e-9),
                   "cpu_us_per_delivery": 1e6 * m.cpu_s / max(m.delivered, 1)}
            out["p50_ratio"] = out["pages_crowded_p50"] / out["pages_alone_p50"]
            out["p95_ratio"] = out["pages_crowded_p95"] / out["pages_alone_p95"]
            if m.drawn:
                out |= {"browser_p50": pct(m.drawn, 0.5) * 1000, "browser_p95": pct(m.drawn, 0.95) * 1000}
            label = m.label
            print(f"[{label}] pages alone p50 {out['pages_alone_p50']:.1f} ms p95 {out['pages_alone_p95']:.1f} ms; "
                  f"with {ok}/{args.watchers} watchers p50 {out['pages_crowded_p50']:.1f} ms p95 "
                  f"{out['pages_crowded_p95']:.1f} ms (× {out['p50_ratio']:.2f} p50, × {out['p95_ratio']:.2f} p95)")
            print(f"[{label}] the watchers' cost to the web process: {out['watchers_cpu_ms_per_s']:.0f} ms CPU a "
                  f"second, {out['cpu_us_per_delivery']:.0f} µs a frame delivered ({m.delivered} frames over "
                  f"{m.quiet_s:.0f} s without pages)")
            print(f"[{label}] decision → watcher: p50 {out['delay_p50']:.0f} ms, p95 {out['delay_p95']:.0f} ms over "
                  f"{len(m.delays)} deliveries; one stream over the cap: HTTP {m.one_more}; "
                  f"database connections with the watchers on: {m.connections}")
            if m.drawn:
                print(f"[{label}] decision → Chromium drawing it: p50 {out['browser_p50']:.0f} ms, p95 "
                      f"{out['browser_p95']:.0f} ms over {len(m.drawn)} frames")
            results[label] = out
        return results
    finally:
        if publisher is not None:
            publisher.stop.set()
        if watchers is not None:
            watchers.stop.set()
            watchers.join(5)
        for m in measured:
            m.server.stop()
        if publisher is not None:
            publisher.join(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--threads", type=int, default=256)
    parser.add_argument("--pages", type=int, default=120)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quiet", type=float, default=4.0,
                        help="seconds a round measures the watchers' CPU with no page asked")
    parser.add_argument("--before", action="append", help="a git revision whose platform/ is measured beside")
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    queue = f"bench-live-{secrets.token_hex(4)}"
    os.environ["CELERY_BROKER_URL"] = args.redis
    os.environ["ARENA_CELERY_QUEUE"] = queue
    setup_django("bench_live")
    env = dict(os.environ) | {"DJANGO_SETTINGS_MODULE": "arena_site.settings",
                              "ARENA_VAR_DIR": tempfile.mkdtemp(prefix="bench-live-")}
    with tempfile.TemporaryDirectory() as tmp:
        platforms = []
        for n, rev in enumerate(args.before or []):
            folder = Path(tmp) / str(n)
            folder.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "platform"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
            (folder / "manage.py").write_text((ROOT / "manage.py").read_text())
            platforms.append((f"before ({rev})", folder / "platform"))
        platforms.append(("after", ROOT / "platform"))
        results = run(platforms, args, env)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
