"""Forced decisions: what applying a single legal action without asking the bot saves, in round trips and in
sandboxed match wall time (TimeControl.auto_single_action on, the default, against off).

    python bench/forced_decisions.py [--game minos] [--players 4] [--bot bots/python/minos-random]
                                     [--seeds 1-8] [--no-sandbox]

Each seed is played twice through `run_match`, exactly as `arena play` plays it (option on, then off, so load
on the machine hits both alike); the same as

    arena play minos --players 4 --bot bots/python/minos-random (x4) --seed N [--ask-forced]

The games differ between on and off (a random bot asked fewer questions draws different numbers), so the
figures are per-game averages over the seeds, not pairs. Prints one row per match and a summary: decisions per
game, of them with one legal action (re-simulated from the replay, so counted with the option off too), forced
(applied without a call), calls to the bots, wall seconds per match (bot start-up included) and of its play
loop alone (first to last decision), and play-loop ms per decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena import games, replay
from arena.match import BotSpec, TimeControl, run_match


def single_action_decisions(path: str) -> int:
    """Decisions of a replay that had exactly one legal action (re-simulated: counts them with the option off)."""
    rp = replay.load(path)
    state = games.load(rp["header"]["game"], **rp["header"]["params"]).new_state(rp["header"]["seed"])
    n = 0
    for d in rp["decisions"]:
        n += len(state.legal_actions()) == 1
        state.apply(state.game.parse_action(d["action"]))
    return n


def seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def one(game: str, players: int, bot: str, seed: int, auto: bool, sandbox: bool) -> dict:
    tc = TimeControl(decision_ms=5000, bank_ms=60_000, auto_single_action=auto)
    marks: list[float] = []  # when each decision was applied: the play loop, without starting the bots

    def progress(i, state):
        marks.append(time.perf_counter())

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = run_match(game, {"players": players}, seed, [BotSpec(bot)] * players, time_control=tc,
                           sandbox=sandbox, replay_path=str(Path(tmp) / "m.replay.json.gz"), progress=progress)
        wall = time.perf_counter() - t0
        single = single_action_decisions(result.replay_path)
    asked = sum(s.decisions for s in result.seats)
    forced = sum(s.forced for s in result.seats)
    faults = sum(len(s.faults) for s in result.seats)
    return {"seed": seed, "auto_single_action": auto, "decisions": asked + forced, "single": single, "forced": forced,
            "calls": asked, "wall_s": round(wall, 3),
            "loop_s": round(marks[-1] - marks[0], 3), "bot_ms": round(sum(s.time_ms for s in result.seats), 1),
            "faults": faults}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="minos")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bot", default=str(ROOT / "bots/python/minos-random"))
    p.add_argument("--seeds", default="1-8", help="a seed or a range, e.g. 1-8")
    p.add_argument("--no-sandbox", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = []
    for seed in seeds(args.seeds):
        for auto in (True, False):
            row = one(args.game, args.players, args.bot, seed, auto, not args.no_sandbox)
            rows.append(row)
            if not args.json:
                print(f"seed {seed:3d} auto={'on ' if auto else 'off'}  decisions {row['decisions']:4d}  "
                      f"one legal action {row['single']:3d}  forced {row['forced']:3d}  calls {row['calls']:4d}  {row['wall_s']:6.2f} s (play loop {row['loop_s']:5.2f} s)  "
                      f"faults {row['faults']}", flush=True)
    summary = {}
    for auto in (True, False):
        mine = [r for r in rows if r["auto_single_action"] is auto]
        summary["on" if auto else "off"] = {
            "matches": len(mine),
            "decisions_per_game": round(statistics.mean(r["decisions"] for r in mine), 1),
            "single_action_per_game": round(statistics.mean(r["single"] for r in mine), 1),
            "single_action_share": round(sum(r["single"] for r in mine) / sum(r["decisions"] for r in mine), 3),
            "forced_per_game": round(statistics.mean(r["forced"] for r in mine), 1),
            "forced_share": round(sum(r["forced"] for r in mine) / sum(r["decisions"] for r in mine), 3),
            "calls_per_game": round(statistics.mean(r["calls"] for r in mine), 1),
            "wall_s_per_match": round(statistics.mean(r["wall_s"] for r in mine), 3),
            "wall_s_median": round(statistics.median(r["wall_s"] for r in mine), 3),
            "loop_s_per_match": round(statistics.mean(r["loop_s"] for r in mine), 3),
            "loop_s_median": round(statistics.median(r["loop_s"] for r in mine), 3),
            "loop_ms_per_decision": round(1000 * sum(r["loop_s"] for r in mine) / sum(r["decisions"] for r in mine),
                                          3),
        }
    out = {"game": args.game, "players": args.players, "bot": args.bot, "sandbox": not args.no_sandbox,
           "summary": summary}
    if args.json:
        out["rows"] = rows
    print(json.dumps(out, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
