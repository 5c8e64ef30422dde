"""Cost of playing through sandboxed gRPC bots instead of in-process policies.

    python bench/bot_latency.py [--calls 2000] [--starts 7] [--matches 3] [--no-sandbox] [--json]
    python bench/bot_latency.py --freezer [--calls 2000] [--json]      # only 4. below

Measures, for the Python, the Node and the C++ kit (random bots; the C++ one is built first if its program is
missing or stale, as `arena bot build` does):
1. per-decision round trip of `Decide` to a sandboxed bot (median / p99), for a small request (no observation,
   3 legal actions: the ~0.4 ms bare-gRPC figure of shared/design/sandbox.md) and for real Thebes decisions
   (4 players, typed observation and every legal action), against the same random policy called in-process,
   and the referee's cost of building a Thebes request;
2. start-to-ready: from `launch` until StartMatch has been answered;
3. a full 4-player Thebes match of random bots through `run_match` (sandboxed) against the same match played
   with in-process random policies (state.observation built for every decision, as the referee does).
4. (`--freezer`) the cost of freezing a bot between its decisions (the referee thaws its cgroup before Decide and
   freezes it after the answer): in one run, alternating, a Decide round trip to a bot that has been running
   (no freezer) against thaw + round trip to a bot that has been frozen (the bot's critical path) and against the
   whole cycle with the freeze write; median ratios to the plain round trip.

Targets (issue 4): median round trip within 1.5x of ~0.4 ms; Python start-to-ready < 150 ms; sandboxed match
< 3x the in-process one.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena import botbuild, games  # noqa: E402
from arena.botpkg import load_manifest  # noqa: E402
from arena.games.policy import RandomPolicy  # noqa: E402
from arena.match import BotSpec, TimeControl, run_match  # noqa: E402
from arena.match.client import BotClient  # noqa: E402
from arena.match.protocol import Encoder  # noqa: E402
from arena.sandbox import SandboxLimits, launch  # noqa: E402
from arena.v1 import arena_pb2  # noqa: E402

KITS = {"python": ROOT / "bots/python/random", "node": ROOT / "bots/node/random", "cpp": ROOT / "bots/cpp/random"}

# The baseline of shared/design/sandbox.md: a bare Python gRPC server, unsandboxed, that does not even parse the
# request (answers fixed bytes). Measured here under the same load as the kits, for a fair ratio.
BARE_SERVER = """
import os, grpc
from concurrent import futures
answer = bytes([8, 0])  # DecideResponse{index: 0}
handler = grpc.method_handlers_generic_handler("arena.v1.Bot", {
    "Decide": grpc.unary_unary_rpc_method_handler(lambda req, ctx: answer),
})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port("unix:" + os.environ["ARENA_SOCKET"])
server.start()
server.wait_for_termination()
"""


def bare_round_trips(requests: list, calls: int) -> list[float]:
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, "bare.sock")
        proc = subprocess.Popen([sys.executable, "-c", BARE_SERVER], env={**os.environ, "ARENA_SOCKET": sock})
        try:
            deadline = time.monotonic() + 10
            while not os.path.exists(sock) and time.monotonic() < deadline:
                time.sleep(0.005)
            client = BotClient(sock)
            round_trips(client, requests, 200)
            out = round_trips(client, requests, calls)
            client.close()
            return out
        finally:
            proc.kill()
            proc.wait()


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def thebes_requests(n: int, seed: int = 1) -> tuple[list, list]:
    """n real decision requests from random 4-player games, with their (observation, legal) pairs."""
    game = games.load("thebes", players=4)
    encoder = Encoder(game)
    rng = random.Random(seed)
    requests, raw = [], []
    s = seed
    while len(requests) < n:
        state = game.new_state(s)
        s += 1
        while not state.is_terminal() and len(requests) < n:
            seat = state.current_player()
            obs, legal = state.observation(seat), state.legal_actions()
            requests.append(encoder.decide(len(requests), seat, obs, legal, 1000, 10_000))
            raw.append((obs, legal))
            state.apply(legal[rng.randrange(len(legal))])
    return requests, raw


def start_bot(kit: str, sandbox: bool):
    folder = KITS[kit]
    manifest = load_manifest(folder)
    game = games.load("thebes", players=4)
    t0 = time.perf_counter()
    proc = launch(folder, list(manifest.command), manifest.sandbox_runtime, SandboxLimits(), sandbox=sandbox)
    if not proc.wait_for_socket(10):
        raise RuntimeError(f"{kit} bot did not start: {proc.output_tail()}")
    client = BotClient(proc.server_address)
    client.call("StartMatch", Encoder(game).start(0, ["a", "b", "c", "d"], 1, TimeControl()), 10,
                wait_for_ready=True)
    return proc, client, (time.perf_counter() - t0) * 1000


def round_trips(client: BotClient, requests: list, calls: int) -> list[float]:
    out = []
    for i in range(calls):
        request = requests[i % len(requests)]
        t0 = time.perf_counter()
        client.call("Decide", request, 5)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def freezer_cost(kit: str, requests: list, calls: int) -> dict:
    """Per-decision cost of the freezer for one kit's bot (see the module docstring, 4.), in ms."""
    proc, client, _ = start_bot(kit, sandbox=True)
    cg = proc.cgroups
    if cg is None or not cg.can_freeze:
        raise RuntimeError("this host has no cgroup freezer")
    plain, thaw, call, path, cycle = [], [], [], [], []
    try:
        round_trips(client, requests, 200)  # warm up
        for i in range(calls):
            request = requests[i % len(requests)]
            # without the freezer: the bot has been running since its last answer
            proc.thaw()
            time.sleep(0.001)
            t0 = time.perf_counter()
            client.call("Decide", request, 5)
            plain.append((time.perf_counter() - t0) * 1000)
            # with it: frozen since its last answer, as between a bot's decisions in a match
            proc.freeze()
            deadline = time.monotonic() + 1
            while not cg.frozen() and time.monotonic() < deadline:
                time.sleep(0.0002)
            t0 = time.perf_counter()
            proc.thaw()
            t1 = time.perf_counter()
            client.call("Decide", request, 5)
            t2 = time.perf_counter()
            proc.freeze()
            t3 = time.perf_counter()
            thaw.append((t1 - t0) * 1000)
            call.append((t2 - t1) * 1000)
            path.append((t2 - t0) * 1000)
            cycle.append((t3 - t0) * 1000)
    finally:
        client.close()
        proc.close()
    base = statistics.median(plain)
    return {"plain_round_trip_ms_median": base, "thaw_ms_median": statistics.median(thaw),
            "round_trip_after_thaw_ms_median": statistics.median(call),
            "thaw_and_round_trip_ms_median": statistics.median(path),
            "thaw_round_trip_freeze_ms_median": statistics.median(cycle),
            "critical_path_ratio": statistics.median(path) / base, "cycle_ratio": statistics.median(cycle) / base}


def in_process_match(seed: int) -> tuple[float, int]:
    game = games.load("thebes", players=4)
    policy, rng = RandomPolicy(), random.Random(seed)
    t0 = time.perf_counter()
    state = game.new_state(seed)
    n = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        state.observation(seat)
        state.apply(legal[policy.choose(None, legal, rng)])
        n += 1
    return (time.perf_counter() - t0) * 1000, n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--freezer", action="store_true", help="measure only the cost of freezing bots")
    args = parser.parse_args()
    if args.freezer:
        return freezer_main(args)
    sandbox = not args.no_sandbox
    report: dict = {"sandbox": sandbox, "calls": args.calls}
    built = botbuild.ensure_built(KITS["cpp"], sandbox=sandbox)
    if built is not None:
        report["cpp_build_s"] = built.seconds

    requests, raw = thebes_requests(300)
    small = arena_pb2.DecideRequest(decision=0, seat=0, legal_actions=[
        arena_pb2.LegalAction(index=i, text=f"take {i + 1}") for i in range(3)])
    policy, rng = RandomPolicy(), random.Random(0)
    t0 = time.perf_counter()
    for obs, legal in raw * 10:
        policy.choose(obs, legal, rng)
    report["in_process_policy_ms"] = (time.perf_counter() - t0) * 1000 / (len(raw) * 10)
    game = games.load("thebes", players=4)
    encoder = Encoder(game)
    t0 = time.perf_counter()
    for obs, legal in raw:
        encoder.decide(0, 0, obs, legal, 1000, 1000)
    report["referee_encode_thebes_ms"] = (time.perf_counter() - t0) * 1000 / len(raw)
    report["thebes_request_bytes_median"] = statistics.median(r.ByteSize() for r in requests)

    bare = bare_round_trips([small], args.calls)
    report["bare_python_grpc_round_trip_ms_median"] = statistics.median(bare)
    report["bare_python_grpc_round_trip_ms_p99"] = pct(bare, .99)

    for kit in KITS:
        starts = []
        for _ in range(args.starts):
            proc, client, ms = start_bot(kit, sandbox)
            starts.append(ms)
            client.close()
            proc.close()
        proc, client, _ = start_bot(kit, sandbox)
        try:
            round_trips(client, requests, 200)  # warm up (JIT, caches)
            rt_small = round_trips(client, [small], args.calls)
            rt_thebes = round_trips(client, requests, args.calls)
        finally:
            client.close()
            proc.close()
        report[kit] = {
            "start_to_ready_ms_median": statistics.median(starts), "start_to_ready_ms_max": max(starts),
            "small_round_trip_ms_median": statistics.median(rt_small), "small_round_trip_ms_p99": pct(rt_small, .99),
            "thebes_round_trip_ms_median": statistics.median(rt_thebes),
            "thebes_round_trip_ms_p99": pct(rt_thebes, .99),
        }

    sandboxed, in_proc, decisions, play, until_first = [], [], [], [], []
    for m in range(args.matches):
        stamps: list[float] = []
        t0 = time.perf_counter()
        result = run_match("thebes", {"players": 4}, 100 + m, [BotSpec(str(KITS["python"]))] * 4,
                           sandbox=sandbox, progress=lambda i, state, stamps=stamps: stamps.append(time.perf_counter()))
        sandboxed.append((time.perf_counter() - t0) * 1000)
        until_first.append((stamps[0] - t0) * 1000)  # starting the 4 bots + the first decision
        play.append((stamps[-1] - stamps[0]) * 1000 * len(stamps) / max(1, len(stamps) - 1))
        assert all(not s.faults for s in result.seats), result
        decisions.append(sum(s.decisions for s in result.seats))
        ms, _ = in_process_match(100 + m)
        in_proc.append(ms)
    report["match"] = {
        "decisions_median": statistics.median(decisions),
        "sandboxed_ms_median": statistics.median(sandboxed), "in_process_ms_median": statistics.median(in_proc),
        "ratio": statistics.median(sandboxed) / statistics.median(in_proc),
        "until_first_decision_ms_median": statistics.median(until_first),
        "decisions_phase_ms_median": statistics.median(play),
        "decisions_phase_ratio": statistics.median(play) / statistics.median(in_proc),
    }

    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"bots {'sandboxed' if sandbox else 'unsandboxed'}; {args.calls} calls per figure")
    print(f"in-process random policy: {report['in_process_policy_ms'] * 1000:.1f} µs per decision; referee builds a "
          f"Thebes request ({report['thebes_request_bytes_median']:.0f} B) in {report['referee_encode_thebes_ms']:.3f} ms")
    print(f"bare Python gRPC server (unsandboxed, no parsing): round trip "
          f"{report['bare_python_grpc_round_trip_ms_median']:.3f} ms (p99 {report['bare_python_grpc_round_trip_ms_p99']:.3f})")
    for kit in KITS:
        r = report[kit]
        print(f"{kit:6s} start-to-ready {r['start_to_ready_ms_median']:.0f} ms (max {r['start_to_ready_ms_max']:.0f}); "
              f"round trip small {r['small_round_trip_ms_median']:.3f} ms (p99 {r['small_round_trip_ms_p99']:.3f}), "
              f"Thebes {r['thebes_round_trip_ms_median']:.3f} ms (p99 {r['thebes_round_trip_ms_p99']:.3f})")
    m = report["match"]
    print(f"4-player Thebes match of random bots ({m['decisions_median']:.0f} decisions): sandboxed "
          f"{m['sandboxed_ms_median']:.0f} ms, in-process {m['in_process_ms_median']:.1f} ms, ratio {m['ratio']:.0f}x;\n"
          f"  of which starting the bots (until the first decision) {m['until_first_decision_ms_median']:.0f} ms, "
          f"the decisions {m['decisions_phase_ms_median']:.0f} ms ({m['decisions_phase_ratio']:.1f}x in-process), "
          f"the rest stopping the bots and writing the result")
    return 0


def freezer_main(args) -> int:
    botbuild.ensure_built(KITS["cpp"], sandbox=True)
    requests, _ = thebes_requests(300)
    report = {"calls": args.calls, **{kit: freezer_cost(kit, requests, args.calls) for kit in KITS}}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"freezer cost per Thebes decision, {args.calls} alternating pairs per kit (medians)")
    for kit in KITS:
        r = report[kit]
        print(f"{kit:6s} round trip {r['plain_round_trip_ms_median']:.3f} ms without the freezer; frozen bot: "
              f"thaw {r['thaw_ms_median']:.3f} + round trip {r['round_trip_after_thaw_ms_median']:.3f} = "
              f"{r['thaw_and_round_trip_ms_median']:.3f} ms ({r['critical_path_ratio']:.2f}x), with the freeze "
              f"write {r['thaw_round_trip_freeze_ms_median']:.3f} ms ({r['cycle_ratio']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
