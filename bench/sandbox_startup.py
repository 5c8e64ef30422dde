"""Sandbox start-up figures: how long until a sandboxed bot can be used.

    python bench/sandbox_startup.py [--runs 20]

Prints medians and p90 (ms) of:
- bwrap warm start: bare `bwrap ... -- /usr/bin/true` (the floor of any sandbox), and the full chain of
  `arena.sandbox.launch` (uid lease, socket tmpfs, binds, cgroups, sh -> setpriv -> prlimit -> bwrap) running
  `/usr/bin/true` until it has exited;
- close: `BotProcess.close()` of a running bot (everything killed, unmounted, removed);
- start-to-ready of the Python and Node starter kits (bots/python/random, bots/node/random): from `launch` to the
  first successful gRPC call (StartMatch) on the bot's socket. Target: < 150 ms for Python. Also the CPU the bot
  spent until then (its cgroup's cpuacct): unlike wall time, it hardly moves when the machine is busy, so it
  tells what an idle machine would show;
- the same for a bare Python gRPC server (grpcio + the generated arena.v1 code, no SDK), to tell the SDK's share.
Needs root, bubblewrap and the runtimes (`arena runtimes install`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from arena.botpkg import load_manifest  # noqa: E402
from arena.sandbox import SandboxLimits, check_available, launch  # noqa: E402
from arena.v1 import arena_pb2, arena_pb2_grpc  # noqa: E402

BARE_GRPC_BOT = """
import os
from concurrent import futures
import grpc
from arena.v1 import arena_pb2, arena_pb2_grpc

class Bot(arena_pb2_grpc.BotServicer):
    def StartMatch(self, request, context):
        return arena_pb2.StartMatchResponse()

server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
arena_pb2_grpc.add_BotServicer_to_server(Bot(), server)
server.add_insecure_port("unix:" + os.environ["ARENA_SOCKET"])
server.start()
server.wait_for_termination()
"""

BARE_BWRAP = ["bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64",
              "/lib64", "--proc", "/proc", "--dev", "/dev", "--unshare-all", "--die-with-parent", "--clearenv",
              "--", "/usr/bin/true"]


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 1),
            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))] * 1000, 1),
            "min_ms": round(ordered[0] * 1000, 1)}


def bare_bwrap(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(BARE_BWRAP, check=True)
        out.append(time.perf_counter() - t)
    return out


def full_chain_true(runs: int, empty_dir: Path) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        bot = launch(empty_dir, ["/usr/bin/true"], None, SandboxLimits())
        while bot.poll() is None:
            time.sleep(0.0002)
        out.append(time.perf_counter() - t)
        bot.close()
    return out


def start_to_ready(bot_dir: Path, runs: int, command: list[str] | None = None, runtime: str | None = None
                   ) -> tuple[list[float], list[float], list[float]]:
    if command is None:
        manifest = load_manifest(bot_dir)
        command, runtime = list(manifest.command), manifest.sandbox_runtime
    request = arena_pb2.StartMatchRequest(protocol="arena.v1", game="thebes", params_json='{"players": 2}', seat=0,
                                          players=[arena_pb2.Player(seat=0, name="a"),
                                                   arena_pb2.Player(seat=1, name="b")])
    ready, closing, cpu = [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        bot = launch(bot_dir, command, runtime, SandboxLimits())
        try:
            if not bot.wait_for_socket(10):
                raise SystemExit(f"{bot_dir} never served: {bot.exit_reason()}\n{bot.output_tail()}")
            with grpc.insecure_channel(f"unix:{bot.socket_path}") as channel:
                arena_pb2_grpc.BotStub(channel).StartMatch(request, timeout=5)
                ready.append(time.perf_counter() - t)
                cpu.append(bot.cpu_seconds())
        finally:
            c = time.perf_counter()
            bot.close()
            closing.append(time.perf_counter() - c)
    return ready, closing, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    check_available()
    report: dict[str, dict[str, float]] = {}
    report["bwrap bare warm start (true)"] = summary(bare_bwrap(args.runs))
    with tempfile.TemporaryDirectory() as empty:
        Path(empty).chmod(0o755)
        report["full sandbox chain (true), launch to exit"] = summary(full_chain_true(args.runs, Path(empty)))
    for kit in ("python", "node"):
        ready, closing, cpu = start_to_ready(ROOT / "bots" / kit / "random", args.runs)
        report[f"{kit} kit start-to-ready (first StartMatch answered)"] = summary(ready)
        report[f"{kit} kit CPU used until ready"] = summary(cpu)
        report[f"{kit} kit close"] = summary(closing)
    with tempfile.TemporaryDirectory() as bare:
        Path(bare).chmod(0o755)
        (Path(bare) / "bot.py").write_text(BARE_GRPC_BOT)
        (Path(bare) / "bot.py").chmod(0o644)
        ready, _, cpu = start_to_ready(Path(bare), args.runs, ["python", "bot.py"], "python")
        report["bare grpcio server start-to-ready"] = summary(ready)
        report["bare grpcio server CPU used until ready"] = summary(cpu)
    width = max(len(k) for k in report)
    for name, figures in report.items():
        print(f"{name:<{width}}  median {figures['median_ms']:7.1f} ms   p90 {figures['p90_ms']:7.1f} ms   "
              f"min {figures['min_ms']:7.1f} ms")
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {f.read().split()[0]} (2 cores)")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
