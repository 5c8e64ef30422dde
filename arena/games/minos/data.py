"""Minos game data (`data.json`, copied from the specification), loaded once at import, with lookup tables
derived from it. Everything here is read-only: the engine never mutates these objects."""

from __future__ import annotations

import json
from importlib import resources
from typing import Final

# found through the package, not __file__: the compiled module (mypyc) has no __file__ beside data.json
DATA: Final = json.loads(resources.files("arena.games.minos").joinpath("data.json").read_text(encoding="utf-8"))

C: Final = DATA["constants"]
GOODS: Final[list[str]] = [g["id"] for g in DATA["goods"]]
TRACKS: Final = ["influence", "population", "culture"]
ROWS: Final[list[str]] = DATA["action_board"]["rows"]          # prepare, develop, build, expand, wild
MAIN_ACTIONS: Final = ["prepare", "develop", "build", "expand"]
COLOURS: Final = ["red", "blue", "yellow", "grey"]
COLOUR_LETTER: Final = {"red": "r", "blue": "b", "yellow": "y", "grey": "g"}
LETTER_COLOUR: Final = {v: k for k, v in COLOUR_LETTER.items()}
DIE_TRACK: Final = DATA["die_colour_to_track"]
ROUTES: Final = [r["id"] for r in DATA["trade_routes"]]
ROUTE_SPACES: Final = {r["id"]: {s["space"]: s for s in r["spaces"]} for r in DATA["trade_routes"]}
ROUTE_MAX: Final = 6

TRACK: Final = {t["id"]: t for t in DATA["progress_tracks"]}
TRACK_MAX: Final = 10
INCOME: Final = DATA["income_track"]["spaces"]
INCOME_MAX: Final = DATA["income_track"]["max"]
PALACE_LIMIT: Final = TRACK["influence"]["palace_limit"]
WEAPON_INCOME: Final = TRACK["population"]["weapon_income"]
REGION_SCORING: Final = TRACK["population"]["region_scoring"]

ABILITIES: Final = {a["id"]: a for a in DATA["abilities"]}
STARTING: Final = {s["id"]: s for s in DATA["starting_cards"]}
MOD_DEFAULTS: Final[dict[str, int]] = DATA["modifier_defaults"]
MOD_OVERRIDE: Final = set(DATA["modifier_combination"]["override"])
UNCOVER: Final = DATA["player_board"]["uncover_slots"]
BUILDINGS: Final = DATA["player_board"]["buildings"]
PIECES_ON_BOARD: Final = {k: v["on_board"] for k, v in DATA["player_board"]["pieces"].items() if "on_board" in v}

CARDS: Final = {c["id"]: c for c in DATA["cards"]}


def card_of(instance: str) -> dict:
    """The card data of an instance id such as `I-07#2`."""
    return CARDS[instance.split("#", 1)[0]]


DECK_INSTANCES: Final = {era: [f"{c['id']}#{k}" for c in DATA["cards"] if c["era"] == era for k in range(1, c["copies"] + 1)]
                  for era in ("I", "II")}

REGIONS: Final = {r["id"]: r for r in DATA["map"]["regions"]}
ADJ: Final[dict[int, list[int]]] = {r: [] for r in REGIONS}
for _a, _b in DATA["map"]["adjacency"]:
    ADJ[_a].append(_b)
    ADJ[_b].append(_a)
for _adjacent in ADJ.values():
    _adjacent.sort()
IN_PLAY: Final = {int(k): v for k, v in DATA["map"]["in_play_by_player_count"].items()}
START_REGIONS: Final = {int(k): v for k, v in DATA["map"]["start_regions"].items()}
START_PAIRS: Final = DATA["map"]["start_pairs_2p_and_solo"]
PARTNER: Final = dict(START_PAIRS) | {b: a for a, b in START_PAIRS}

BOARD: Final = {int(k): v for k, v in DATA["action_board"]["by_player_count"].items()}
DICE_REMOVE: Final = {int(k): v for k, v in DATA["dice"]["remove_by_player_count"].items()}

VASES: Final = {v["id"]: v for v in DATA["vases"]["tiles"]}
VASE_SLOTS: Final = {int(k): v for k, v in DATA["vases"]["slots_vp_by_player_count"].items()}
BONUS_ACTIONS: Final = {b["id"]: b for b in DATA["bonus_actions"]}
TRADE_TILES: Final = {t["id"]: t for t in DATA["trade_bonus_tiles"]}
FOUNDATIONS: Final = {f["id"]: f for f in DATA["city_foundation_tiles"]}
FOUNDATION_INSTANCES: Final = [f["id"] for f in DATA["city_foundation_tiles"] for _ in range(f["copies"])]
SEA: Final = {t["id"]: t for t in DATA["sea_peoples_tiles"]}
SEA_INSTANCES: Final = {lvl: [t["id"] for t in DATA["sea_peoples_tiles"] if t["level"] == lvl for _ in range(t["copies"])]
                 for lvl in (1, 2)}
FARM_VP: Final = {int(k): v for k, v in C["farm_scoring"].items()}

SOLO: Final = DATA["solo"]
BOT_DECK: Final = {c["id"]: c for c in SOLO["deck"]}
BOT_CANDIDATES: Final = {g: list(v) for g, v in SOLO["pool_region_candidates_2p"].items()}
