"""The greedy bots carry the public Thebes rule numbers they need (bots have no network and no Arena at run
time); these copies must equal the engine's data. Regenerate with `python tests/bots/test_greedy_rules_data.py`."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COPIES = [ROOT / "bots/python/greedy/thebes_rules.json", ROOT / "bots/node/greedy/thebes_rules.json"]


def rules() -> dict:
    from arena.games.thebes import data as d

    return {
        "about": "Public Thebes rule numbers the greedy bot needs (copied from arena/games/thebes/data.json; "
                 "a test keeps them equal).",
        "distance": {a: {b: d.DIST[i][j] for j, b in enumerate(d.PLACES)} for i, a in enumerate(d.PLACES)},
        "wheel": [list(r) for r in d.WHEEL],
        "congress_points": list(d.CONGRESS_POINTS),
        "car_min_segments": d.CAR_MIN_SEGMENTS, "car_saves": d.CAR_SAVES, "end_time": d.END_TIME,
        "knowledge_cap": d.KNOWLEDGE_CAP, "assistant_bonus": list(d.ASSISTANT_BONUS),
        "shovel_bonus": list(d.SHOVEL_BONUS),
        "site_place": {s: d.PLACES[d.SITE_PLACE[i]] for i, s in enumerate(d.SITES)},
    }


def test_rule_copies_equal_the_engine():
    for copy in COPIES:
        assert json.loads(copy.read_text()) == rules(), f"{copy} is stale: run python {__file__}"


if __name__ == "__main__":
    text = json.dumps(rules(), indent=1, sort_keys=True) + "\n"
    for copy in COPIES:
        copy.write_text(text)
