"""Two versions of the built-in search bot head to head by the clock: level 3 of an old checkout against level 3 of
this one, game pairs scored with the platform's SPRT (fishtest's GSPRT, `platform/versiontests/stats.py`).

    git -C /work/main archive main arena bots | tar -x -C /tmp/engines-old     # and build it: bench/engine_versions.py
    nice python bench/search_versions_sprt.py --old /tmp/engines-old [--game thebes] [--think 1.0]
                                              [--max-pairs 200] [--minutes 25] [--elo0 0] [--elo1 30]

Each version runs in its own process with its own `arena` (engines, compiled if built) and SDK (`arena_bot.search`)
on its path, as in the sandbox but without it: the driver (this checkout's engine) holds the game and sends each
version, at its decision, the actions played since it last chose; the version replays them on its own engine,
builds the DecideRequest with its own `Encoder` and answers with `SearchBot.decide` — `--think` seconds of its
own CPU time (`time.process_time`, as the bot measures it), so a busy machine slows both alike. A pair is one
seed played twice with the seats swapped; its score is the new version's mean result over the two games (win 1,
tie ½, by rank), on the five-point grid of the platform's two-player pairs. Since the two versions meet each
other (not each the same third bot), the mean pair score is the new version's head-to-head score: the LLR uses
the bounds as they are (`stats.llr_logistic`) and the Elo is `stats.elo_of(mean)` with its 95% interval. Stops at
a verdict, `--max-pairs`, or `--minutes`; prints one JSON line per pair and a summary.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "platform"))

from arena import games  # noqa: E402
from versiontests import stats  # noqa: E402

_PLAYER = r"""
import json, sys
root, think = sys.argv[1], float(sys.argv[2])
sys.path[:0] = [root, root + "/bots/python/sdk"]
import arena
assert arena.__file__.startswith(root), arena.__file__
from arena import games
from arena.match.protocol import Encoder
from arena.v1 import arena_pb2
from arena_bot.search import SearchBot
state = bot = encoder = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["op"] == "start":
        game = games.load(msg["game"], players=msg["players"])
        state, encoder = game.new_state(msg["seed"]), Encoder(game)
        bot = SearchBot(think)
        bot.start(arena_pb2.StartMatchRequest(game=msg["game"], params_json=json.dumps({"players": msg["players"]}),
                                              seat=msg["seat"], bot_seed=msg["seed"]))
        print(json.dumps({"engine": games.ENGINE}), flush=True)
        continue
    for text in msg["played"]:
        state.apply_text(text)
    legal = state.legal_actions()
    request = encoder.decide(msg["k"], msg["seat"], state.observation(msg["seat"]), legal, msg["decision_ms"],
                             msg["bank_ms"])
    choice = bot.decide(request)
    print(json.dumps({"action": choice if isinstance(choice, str) else str(legal[choice])}), flush=True)
"""


class Player:
    """One version's search bot in its own process."""

    def __init__(self, root: Path, think: float):
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ARENA_PURE")}
        self.proc = subprocess.Popen([sys.executable, "-c", _PLAYER, str(root), str(think)], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.seen = 0
        self.engine = ""

    def ask(self, msg: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a player process died")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def play(name: str, seed: int, seats: list[Player], decision_ms: int, bank_ms: int) -> list[int]:
    """One game, seats[i] playing seat i; the ranks."""
    players = len(seats)
    for s, player in enumerate(seats):
        player.seen = 0
        player.engine = player.ask({"op": "start", "game": name, "players": players, "seed": seed, "seat": s})["engine"]
    state = games.load(name, players=players).new_state(seed)
    played: list[str] = []
    k = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            text = str(legal[0])
        else:
            player = seats[seat]
            text = player.ask({"op": "decide", "played": played[player.seen:], "seat": seat, "k": k,
                               "decision_ms": decision_ms, "bank_ms": bank_ms})["action"]
            player.seen = len(played)
        state.apply_text(text)
        played.append(text)
        k += 1
    return state.ranking()


def result(ranks: list[int], seat: int) -> float:
    """1 for the better rank, ½ for a tie, 0 (two players)."""
    other = ranks[1 - seat]
    return 1.0 if ranks[seat] < other else 0.5 if ranks[seat] == other else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--game", default="thebes")
    parser.add_argument("--think", type=float, default=1.0, help="level 3: 1 s (bots/python/mcts-level3)")
    parser.add_argument("--decision-ms", type=int, default=1000)
    parser.add_argument("--bank-ms", type=int, default=10_000)
    parser.add_argument("--max-pairs", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=25)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    new, old = Player(ROOT, args.think), Player(args.old.resolve(), args.think)
    lower, upper = stats.bounds()
    counts = [0] * stats.grid_size(2)
    history: list[float] = []
    deadline = time.monotonic() + args.minutes * 60
    decision = ""
    try:
        for i in range(args.max_pairs):
            seed = args.seed * 100_000 + i
            first = result(play(args.game, seed, [new, old], args.decision_ms, args.bank_ms), 0)
            second = result(play(args.game, seed, [old, new], args.decision_ms, args.bank_ms), 1)
            pair = (first + second) / 2
            history.append(pair)
            counts[round(pair * 4)] += 1
            llr = stats.llr_logistic(args.elo0, args.elo1, counts)
            print(json.dumps({"pair": i + 1, "seed": seed, "new_scores": [first, second], "llr": round(llr, 3)}),
                  flush=True)
            decision = "accepted" if llr > upper else "rejected" if llr < lower else ""
            if decision or time.monotonic() > deadline:
                break
    finally:
        new.close()
        old.close()
    n = len(history)
    mean = sum(history) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in history) / n / n) if n > 1 else float("inf")
    elo = [stats.elo_of(m) if 0 < m < 1 else (math.inf if m >= 1 else -math.inf)
           for m in (mean, mean - 1.96 * se, mean + 1.96 * se)]
    print(json.dumps({"game": args.game, "think": args.think, "pairs": n, "counts": counts, "mean_score": round(mean, 4),
                      "elo": round(elo[0], 1) if math.isfinite(elo[0]) else None,
                      "elo_95": [round(e, 1) if math.isfinite(e) else None for e in elo[1:]],
                      "llr": round(stats.llr_logistic(args.elo0, args.elo1, counts), 3), "bounds": [lower, upper],
                      "decision": decision or "undecided", "elo0": args.elo0, "elo1": args.elo1,
                      "engines": {"new": new.engine, "old": old.engine}}))


if __name__ == "__main__":
    main()
