"""Train the learned bot's value functions from self-play (CPU, one core, minutes), and export them beside bot.py.

    python bots/python/learned/train.py [--games 600] [--players 2] [--out bots/python/learned]

Needs `pip install 'arena[envs]'` (numpy) in the author's environment; the bot itself needs only its model files.
For each game: plays `--games` games between two "noisy greedy" seats (the engine's greedy policy, a random legal
action 30 % of the time, for varied positions); after every decision records the deciding seat's encoded
observation (`arena.games.features`, sparse; a `--share` of the positions) and whether that seat finished first; fits a logistic regression
(features scaled by their largest magnitude, L2 1e-4, Adam on mini-batches, a few epochs) and writes
`model-<game>.json` with the scaling folded into the weights. Prints the held-out log-loss and accuracy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from arena import games  # noqa: E402
from arena.games.features import OBS_SIZE, OBS_VERSION, observation_features  # noqa: E402

RANDOM_SHARE = 0.3


Row = tuple[np.ndarray, np.ndarray]  # (slots int16, values float32): one position's non-zero features


def self_play(name: str, players: int, n_games: int, seed: int, share: float) -> tuple[list[Row], list[int]]:
    game = games.load(name, players=players)
    greedy = games.policies(name)["greedy"]()
    rows: list[Row] = []
    labels: list[int] = []
    rng = random.Random(seed)
    for g in range(n_games):
        state = game.new_state(seed * 1_000_003 + g)
        mine: list[tuple[int, Row]] = []
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() >= RANDOM_SHARE:
                pick = greedy.choose(state.observation(seat), legal, rng)
            else:
                pick = rng.randrange(len(legal))
            state.apply(legal[pick])
            if len(legal) > 1 and rng.random() < share:  # a share of the positions: fewer, less correlated rows
                features = observation_features(state.observation(seat), seat, players)
                mine.append((seat, (np.fromiter(features, np.int16), np.fromiter(features.values(), np.float32))))
        ranks = state.ranking()
        for seat, features in mine:
            rows.append(features)
            labels.append(int(ranks[seat] == 1))
    return rows, labels


def dense(rows: list[Row]) -> np.ndarray:
    out = np.zeros((len(rows), OBS_SIZE), dtype=np.float32)
    for i, (slots, values) in enumerate(rows):
        out[i, slots] = values
    return out


def fit(rows: list[Row], labels: list[int], epochs: int, seed: int) -> tuple[np.ndarray, float, dict]:
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(rows))
    cut = int(0.9 * len(rows))
    train, test = order[:cut], order[cut:]
    y = np.asarray(labels, dtype=np.float32)
    scale = np.ones(OBS_SIZE, dtype=np.float32)
    for slots, values in rows:
        np.maximum.at(scale, slots, np.abs(values))
    w = np.zeros(OBS_SIZE, dtype=np.float64)
    b = 0.0
    m, v, mb, vb, t = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0, 0
    lr, l2, batch = 0.01, 1e-4, 512
    for _ in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train), batch):
            idx = train[start:start + batch]
            x = dense([rows[i] for i in idx]) / scale
            p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
            err = p - y[idx]
            gw = x.T @ err / len(idx) + l2 * w
            gb = float(err.mean())
            t += 1
            m = 0.9 * m + 0.1 * gw
            v = 0.999 * v + 0.001 * gw * gw
            mb = 0.9 * mb + 0.1 * gb
            vb = 0.999 * vb + 0.001 * gb * gb
            w -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
            b -= lr * (mb / (1 - 0.9 ** t)) / (np.sqrt(vb / (1 - 0.999 ** t)) + 1e-8)
    x = dense([rows[i] for i in test]) / scale
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w + b))), 1e-6, 1 - 1e-6)
    yt = y[test]
    report = {"rows": len(rows), "held_out": len(test),
              "log_loss": round(float(-np.mean(yt * np.log(p) + (1 - yt) * np.log(1 - p))), 4),
              "accuracy": round(float(np.mean((p > 0.5) == (yt > 0.5))), 4),
              "base_rate": round(float(yt.mean()), 4)}
    return w / scale, b, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--share", type=float, default=0.25, help="share of the positions recorded")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=games.names())
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in [args.only] if args.only else games.names():
        started = time.process_time()
        rows, labels = self_play(name, args.players, args.games, args.seed, args.share)
        played = time.process_time() - started
        w, b, report = fit(rows, labels, args.epochs, args.seed)
        weights = {str(i): round(float(x), 6) for i, x in enumerate(w) if abs(x) > 1e-7}
        (args.out / f"model-{name}.json").write_text(json.dumps(
            {"game": name, "obs_version": OBS_VERSION, "bias": round(b, 6), "weights": weights,
             "trained": {"games": args.games, "players": args.players, "epochs": args.epochs, "seed": args.seed,
                         "random_share": RANDOM_SHARE, "share": args.share, **report}}, indent=None, sort_keys=True) + "\n")
        print(json.dumps({"game": name, "self_play_cpu_s": round(played, 1),
                          "total_cpu_s": round(time.process_time() - started, 1), **report}), flush=True)


if __name__ == "__main__":
    main()
