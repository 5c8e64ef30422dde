"""Minos engine speed on one core, in CPU time (robust on a shared machine), with where the time goes.

    python bench/minos_speed.py [--players 4] [--games 200] [--seed 0]

Random playouts (legal_actions + uniform choice + apply, no observations, like `arena bench minos`), timed with
`time.process_time()`; then the same playouts again with the time split by decision kind (draft, groups, turn,
effect sub-choices, ...) and between legal_actions() and apply().
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from arena import games
from arena.commands.selfplay import game_seed


def playouts(players: int, n_games: int, seed: int) -> dict:
    game = games.load("minos", players=players)
    rng = random.Random(seed)
    decisions = 0
    t0 = time.process_time()
    for i in range(n_games):
        st = game.new_state(game_seed(seed, i))
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    cpu = time.process_time() - t0
    return {"players": players, "games": n_games, "cpu_seconds": round(cpu, 3),
            "games_per_cpu_second": round(n_games / cpu, 1), "decisions_per_cpu_second": round(decisions / cpu),
            "decisions_per_game": round(decisions / n_games, 1)}


def breakdown(players: int, n_games: int, seed: int) -> dict[str, dict[str, float]]:
    game = games.load("minos", players=players)
    rng = random.Random(seed)
    legal_t: dict[str, float] = defaultdict(float)
    apply_t: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    setup = 0.0
    clock = time.perf_counter
    for i in range(n_games):
        t = clock()
        st = game.new_state(game_seed(seed, i))
        setup += clock() - t
        while not st.is_terminal():
            kind = st.decision()
            t0 = clock()
            legal = st.legal_actions()
            t1 = clock()
            st.apply(legal[rng.randrange(len(legal))])
            t2 = clock()
            legal_t[kind] += t1 - t0
            apply_t[kind] += t2 - t1
            count[kind] += 1
    total = setup + sum(legal_t.values()) + sum(apply_t.values())
    out = {"new_state": {"share": round(setup / total, 3)}}
    for k in sorted(count, key=lambda k: -(legal_t[k] + apply_t[k])):
        out[k] = {"decisions_per_game": round(count[k] / n_games, 1),
                  "share": round((legal_t[k] + apply_t[k]) / total, 3),
                  "legal_us": round(legal_t[k] / count[k] * 1e6, 1), "apply_us": round(apply_t[k] / count[k] * 1e6, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for players in args.players or [2, 4]:
        r = playouts(players, args.games, args.seed)
        print(f"minos {players}p: {r['games_per_cpu_second']} games/CPU-s, {r['decisions_per_cpu_second']} "
              f"decisions/CPU-s, {r['decisions_per_game']} decisions/game")
        for kind, row in breakdown(players, max(20, args.games // 4), args.seed).items():
            print(f"    {kind:14s} " + "  ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
