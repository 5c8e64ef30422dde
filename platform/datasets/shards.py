"""Building and checking the ladders' public datasets.

Which matches: a ladder's matches that are finished (not void), have their replay in storage, and whose deal is
public (`matches.seeds.seed_is_public`: over, and no match still to be played shares the seed), and none of whose
bots' owners opted it out of public datasets (`Bot.dataset_opt_out`, at build time: a shard already published
stays as it was). Each match goes into one shard, once.

Incremental: `build(ladder)` writes the matches not yet in a shard into new shards (`MATCHES_PER_SHARD` at most
each), `datasets/<ladder slug>/shard-<number>.parquet`, numbered on; an existing shard is never rewritten. The
schema, `datasets/<ladder slug>/schema.json` (`schema()`), describes every column.

One row per decision (see `COLUMNS`): the deciding seat's encoded observation as it saw it (the sparse form of
`arena.envs.encoding`, encoding `OBS_VERSION`), its action mask (the legal actions' slots in the game's action
space, `arena.envs.actions`), the action taken (slot and text), the time it took, whether it was forced, and the
final score and rank of every seat; with the match's id, seed, parameters and engine version, from which `check`
re-plays the rows through the engine and compares the observations and masks.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from django.db import transaction

from arena import games
from arena import replay as replays
from arena.envs.actions import action_space
from arena.games.features import OBS_SIZE, OBS_VERSION, observation_features
from arena_site import objects
from datasets.models import Shard, ShardMatch
from ladders.models import Ladder
from matches.models import Match
from matches.seeds import seed_is_public

MATCHES_PER_SHARD = 500
FORMAT = "arena-dataset-1"

COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("match_id", pa.int64(), "the platform's match id (/matches/<id>/)"),
    ("game", pa.string(), "the game's name"),
    ("params_json", pa.string(), "the game's parameters, JSON ({\"players\": 4, ...})"),
    ("seed", pa.int64(), "the match seed (public: the deal is over)"),
    ("engine_version", pa.string(), "the engine the match was played with"),
    ("decision", pa.int32(), "the decision's index in the match (turn = decision + 1)"),
    ("seat", pa.int16(), "the deciding seat (0-based)"),
    ("bot_id", pa.int64(), "the deciding seat's bot (/bots/<id>/)"),
    ("obs_version", pa.string(), "the observation encoding (arena.games.features)"),
    ("obs_index", pa.list_(pa.int16()), f"non-zero slots of the seat's encoded observation (0..{OBS_SIZE - 1})"),
    ("obs_value", pa.list_(pa.float32()), "their values (the dense vector: zeros elsewhere)"),
    ("action_version", pa.string(), "the action space (arena.envs.actions)"),
    ("legal_slots", pa.list_(pa.int16()), "the action mask: the slots of the legal actions, in the engine's order"),
    ("action_slot", pa.int16(), "the slot of the action taken"),
    ("action", pa.string(), "the canonical text of the action taken"),
    ("time_ms", pa.float32(), "the time the bot took (ms; 0 when forced)"),
    ("forced", pa.bool_(), "one legal action: applied without asking the bot"),
    ("substitute", pa.bool_(), "the referee's fallback, not the bot's choice (a fault or a disqualified seat)"),
    ("final_scores", pa.list_(pa.float64()), "every seat's final score, by seat"),
    ("final_ranks", pa.list_(pa.int16()), "every seat's final rank (1 = best), by seat"),
]
SCHEMA = pa.schema([pa.field(name, kind) for name, kind, _ in COLUMNS])


def schema(ladder: Ladder) -> dict[str, Any]:
    """The schema file's content."""
    return {"format": FORMAT, "ladder": ladder.slug, "game": ladder.game, "players": ladder.players,
            "obs_version": OBS_VERSION, "obs_size": OBS_SIZE, "action_version": action_space(ladder.game).version,
            "action_slots": action_space(ladder.game).n,
            "columns": [{"name": n, "type": str(t), "description": d} for n, t, d in COLUMNS]}


def folder(ladder: Ladder) -> str:
    return f"datasets/{ladder.slug}"


def eligible(ladder: Ladder) -> list[Match]:
    """The ladder's matches that may go into a new shard, oldest first (see the module's docstring)."""
    qs = (Match.objects.filter(ladder=ladder, status=Match.Status.FINISHED, dataset_entry__isnull=True)
          .exclude(replay_path="").exclude(participants__bot__dataset_opt_out=True).order_by("id"))
    return [m for m in qs if not (m.result or {}).get("void") and seed_is_public(m)]


def match_rows(match: Match) -> Iterator[dict[str, Any]]:
    """The rows of one match, re-simulated from its replay."""
    with objects.opened(match.replay_path) as f:
        replay = replays.load(f)  # type: ignore[arg-type]  # gzip reads a file object
    header = replay["header"]
    game = games.load(header["game"], **header["params"])
    space = action_space(game.name)
    state = game.new_state(header["seed"])
    seats = sorted(replay["result"]["seats"], key=lambda s: s["seat"])
    scores = [float(s["score"]) for s in seats]
    ranks = [int(s["rank"]) for s in seats]
    bots = dict(match.participants.values_list("seat", "bot_id"))
    params_json = json.dumps(header["params"], sort_keys=True)
    for i, d in enumerate(replay["decisions"]):
        seat = state.current_player()
        legal = [str(a) for a in state.legal_actions()]
        slots = space.indices(legal)
        features = observation_features(state.observation(seat), seat, game.players)
        yield {"match_id": match.pk, "game": game.name, "params_json": params_json, "seed": header["seed"],
               "engine_version": header["engine_version"], "decision": i, "seat": seat, "bot_id": bots.get(seat),
               "obs_version": OBS_VERSION, "obs_index": list(features), "obs_value": list(features.values()),
               "action_version": space.version, "legal_slots": slots,
               "action_slot": slots[legal.index(d["action"])], "action": d["action"],
               "time_ms": float(d.get("ms") or 0.0), "forced": bool(d.get("forced")),
               "substitute": bool(d.get("substitute")), "final_scores": scores, "final_ranks": ranks}
        state.apply_text(d["action"])


def _parquet(rows: Iterable[dict[str, Any]]) -> bytes:
    columns: dict[str, list[Any]] = {name: [] for name, _, _ in COLUMNS}
    for row in rows:
        for name in columns:
            columns[name].append(row[name])
    table = pa.table(columns, schema=SCHEMA)
    out = io.BytesIO()
    pq.write_table(table, out, compression="zstd")
    return out.getvalue()


def build(ladder: Ladder, per_shard: int = MATCHES_PER_SHARD) -> list[Shard]:
    """Write the ladder's new matches into new shards; returns them (none when no match is new)."""
    written: list[Shard] = []
    objects.put_bytes(f"{folder(ladder)}/schema.json", (json.dumps(schema(ladder), indent=1) + "\n").encode())
    while True:
        with transaction.atomic():
            Ladder.objects.select_for_update().get(pk=ladder.pk)  # one build of a ladder at a time
            batch = eligible(ladder)[:per_shard]
            if not batch:
                return written
            number = (Shard.objects.filter(ladder=ladder).order_by("-number").values_list("number", flat=True)
                      .first() or 0) + 1
            rows = [row for m in batch for row in match_rows(m)]
            data = _parquet(rows)
            path = f"{folder(ladder)}/shard-{number:05d}.parquet"
            objects.put_bytes(path, data)
            shard = Shard.objects.create(ladder=ladder, number=number, path=path, rows=len(rows),
                                         matches=len(batch), first_match=batch[0].pk, last_match=batch[-1].pk,
                                         size=len(data), sha256=hashlib.sha256(data).hexdigest())
            ShardMatch.objects.bulk_create([ShardMatch(match=m, shard=shard) for m in batch])
            written.append(shard)


def read(shard: Shard) -> pa.Table:
    with objects.opened(shard.path) as f:
        return pq.read_table(io.BytesIO(f.read()))


def check(table: pa.Table, sample: int = 5, seed: int = 0) -> list[str]:
    """Re-play `sample` matches of a shard through the engine from their rows alone (seed, parameters, actions)
    and compare each row's observation, mask and seat with the engine's; returns the differences found."""
    rows = table.to_pylist()
    by_match: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_match.setdefault(row["match_id"], []).append(row)
    chosen = random.Random(seed).sample(sorted(by_match), min(sample, len(by_match)))
    problems: list[str] = []
    for match_id in chosen:
        mine = sorted(by_match[match_id], key=lambda r: r["decision"])
        first = mine[0]
        game = games.load(first["game"], **json.loads(first["params_json"]))
        if game.engine_version != first["engine_version"]:
            problems.append(f"match {match_id}: engine {first['engine_version']}, this Arena has "
                            f"{game.engine_version}")
            continue
        space = action_space(game.name)
        state = game.new_state(first["seed"])
        for expected, row in enumerate(mine):
            where = f"match {match_id} decision {row['decision']}"
            if row["decision"] != expected or state.is_terminal() or state.current_player() != row["seat"]:
                problems.append(f"{where}: not the engine's turn order")
                break
            legal = [str(a) for a in state.legal_actions()]
            features = observation_features(state.observation(row["seat"]), row["seat"], game.players)
            got = dict(zip(row["obs_index"], row["obs_value"]))
            if set(got) != set(features) or any(abs(got[k] - features[k]) > 1e-3 * max(1.0, abs(features[k]))
                                                for k in features):
                problems.append(f"{where}: the observation differs")
            if space.indices(legal) != row["legal_slots"] or space.text(row["action_slot"], legal) != row["action"]:
                problems.append(f"{where}: the action mask or action differs")
            state.apply_text(row["action"])
        else:
            if not state.is_terminal() or [float(s) for s in state.scores()] != row["final_scores"]:
                problems.append(f"match {match_id}: the game does not end with the recorded scores")
    return problems
