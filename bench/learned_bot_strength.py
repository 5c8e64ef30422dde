"""The learned bot's strength (bots/python/learned) against the built-in random and greedy policies, 2 players.

    python bench/learned_bot_strength.py [--games 200] [--game thebes] [--opponent greedy] [--seed 1]

The fast in-process path: the bot's own decision function (`bot.choose`, the code that runs in its sandbox) gets
the referee's own DecideRequest (`arena.match.protocol.Encoder.decide`) for each of its decisions; only the gRPC
call and the sandbox are left out (on the busy shared machine a sandboxed 200-game run per pairing would not fit
the time). Seats alternate game by game; game i is dealt `game_seed(seed, i // 2)`, so each deal is played from
both seats. Per pairing: wins, ties, losses of the learned bot, its mean result (1 a win, ½ a tie, 0 a loss) with
a 95 % interval (±1.96 standard errors over deal pairs, which keeps the two games of one deal together).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots/python/sdk"))
sys.path.insert(0, str(ROOT / "bots/python/learned"))

from bot import ValueModel, choose  # noqa: E402  (the learned bot's own module)

from arena import games  # noqa: E402
from arena.commands.selfplay import game_seed  # noqa: E402
from arena.match.protocol import Encoder  # noqa: E402


def summary(name: str, opponent: str, results: list[float], started: float) -> dict[str, object]:
    pairs = [(results[j] + results[j + 1]) / 2 for j in range(0, len(results) - 1, 2)]
    mean = sum(pairs) / len(pairs)
    sd = math.sqrt(sum((p - mean) ** 2 for p in pairs) / (len(pairs) - 1)) if len(pairs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(pairs))
    return {"game": name, "opponent": opponent, "games": len(results), "wins": results.count(1.0),
            "ties": results.count(0.5), "losses": results.count(0.0), "mean_result": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)], "cpu_s": round(time.process_time() - started, 1)}


def play(name: str, opponent: str, n: int, seed: int, report_every: int = 0) -> dict[str, object]:
    game = games.load(name, players=2)
    model = ValueModel.load(name)
    encoder = Encoder(game)
    rival = games.policies(name)[opponent]()
    results: list[float] = []
    started = time.process_time()
    for i in range(n):
        me = i % 2
        state = game.new_state(game_seed(seed, i // 2))
        rng = random.Random(i)
        k = 0
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                pick = 0
            elif seat == me:
                request = encoder.decide(k, seat, state.observation(seat), legal, 1000, 10_000)
                pick, _ = choose(model, request, rng, game)
            else:
                pick = rival.choose(state.observation(seat) if rival.needs_observation else None, legal, rng)
            state.apply(legal[pick])
            k += 1
        ranks = state.ranking()
        results.append(1.0 if ranks[me] < ranks[1 - me] else 0.5 if ranks[me] == ranks[1 - me] else 0.0)
        if report_every and len(results) % report_every == 0 and len(results) < n:
            print(json.dumps({"partial": True, **summary(name, opponent, results, started)}), flush=True)
    return summary(name, opponent, results, started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=games.names(), action="append")
    parser.add_argument("--opponent", choices=["random", "greedy"], action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report-every", type=int, default=0, help="print the figures so far every N games")
    args = parser.parse_args()
    for name in args.game or games.names():
        for opponent in args.opponent or ["random", "greedy"]:
            print(json.dumps(play(name, opponent, args.games, args.seed, args.report_every)), flush=True)


if __name__ == "__main__":
    main()
