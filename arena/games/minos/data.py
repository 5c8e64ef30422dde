"""Minos game data (`data.json`, copied from the specification), loaded once at import, with lookup tables
derived from it. Everything here is read-only: the engine never mutates these objects."""

from __future__ import annotations

import json
from importlib import resources

# found through the package, not __file__: the compiled module (mypyc) has no __file__ beside data.json
DATA = json.loads(resources.files("arena.games.minos").joinpath("data.json").read_text(encoding="utf-8"))

C = DATA["constants"]
GOODS: list[str] = [g["id"] for g in DATA["goods"]]
TRACKS = ["influence", "population", "culture"]
ROWS: list[str] = DATA["action_board"]["rows"]          # prepare, develop, build, expand, wild
MAIN_ACTIONS = ["prepare", "develop", "build", "expand"]
COLOURS = ["red", "blue", "yellow", "grey"]
COLOUR_LETTER = {"red": "r", "blue": "b", "yellow": "y", "grey": "g"}
LETTER_COLOUR = {v: k for k, v in COLOUR_LETTER.items()}
DIE_TRACK = DATA["die_colour_to_track"]
ROUTES = [r["id"] for r in DATA["trade_routes"]]
ROUTE_SPACES = {r["id"]: {s["space"]: s for s in r["spaces"]} for r in DATA["trade_routes"]}
ROUTE_MAX = 6

TRACK = {t["id"]: t for t in DATA["progress_tracks"]}
TRACK_MAX = 10
INCOME = DATA["income_track"]["spaces"]
INCOME_MAX = DATA["income_track"]["max"]
PALACE_LIMIT = TRACK["influence"]["palace_limit"]
WEAPON_INCOME = TRACK["population"]["weapon_income"]
REGION_SCORING = TRACK["population"]["region_scoring"]

ABILITIES = {a["id"]: a for a in DATA["abilities"]}
STARTING = {s["id"]: s for s in DATA["starting_cards"]}
MOD_DEFAULTS: dict[str, int] = DATA["modifier_defaults"]
MOD_OVERRIDE = set(DATA["modifier_combination"]["override"])
UNCOVER = DATA["player_board"]["uncover_slots"]
BUILDINGS = DATA["player_board"]["buildings"]
PIECES_ON_BOARD = {k: v["on_board"] for k, v in DATA["player_board"]["pieces"].items() if "on_board" in v}

CARDS = {c["id"]: c for c in DATA["cards"]}


def card_of(instance: str) -> dict:
    """The card data of an instance id such as `I-07#2`."""
    return CARDS[instance.split("#", 1)[0]]


DECK_INSTANCES = {era: [f"{c['id']}#{k}" for c in DATA["cards"] if c["era"] == era for k in range(1, c["copies"] + 1)]
                  for era in ("I", "II")}

REGIONS = {r["id"]: r for r in DATA["map"]["regions"]}
ADJ: dict[int, list[int]] = {r: [] for r in REGIONS}
for _a, _b in DATA["map"]["adjacency"]:
    ADJ[_a].append(_b)
    ADJ[_b].append(_a)
for _adjacent in ADJ.values():
    _adjacent.sort()
IN_PLAY = {int(k): v for k, v in DATA["map"]["in_play_by_player_count"].items()}
START_REGIONS = {int(k): v for k, v in DATA["map"]["start_regions"].items()}
START_PAIRS = DATA["map"]["start_pairs_2p_and_solo"]
PARTNER = dict(START_PAIRS) | {b: a for a, b in START_PAIRS}

BOARD = {int(k): v for k, v in DATA["action_board"]["by_player_count"].items()}
DICE_REMOVE = {int(k): v for k, v in DATA["dice"]["remove_by_player_count"].items()}

VASES = {v["id"]: v for v in DATA["vases"]["tiles"]}
VASE_SLOTS = {int(k): v for k, v in DATA["vases"]["slots_vp_by_player_count"].items()}
BONUS_ACTIONS = {b["id"]: b for b in DATA["bonus_actions"]}
TRADE_TILES = {t["id"]: t for t in DATA["trade_bonus_tiles"]}
FOUNDATIONS = {f["id"]: f for f in DATA["city_foundation_tiles"]}
FOUNDATION_INSTANCES = [f["id"] for f in DATA["city_foundation_tiles"] for _ in range(f["copies"])]
SEA = {t["id"]: t for t in DATA["sea_peoples_tiles"]}
SEA_INSTANCES = {lvl: [t["id"] for t in DATA["sea_peoples_tiles"] if t["level"] == lvl for _ in range(t["copies"])]
                 for lvl in (1, 2)}
FARM_VP = {int(k): v for k, v in C["farm_scoring"].items()}

SOLO = DATA["solo"]
BOT_DECK = {c["id"]: c for c in SOLO["deck"]}
BOT_CANDIDATES = {g: list(v) for g, v in SOLO["pool_region_candidates_2p"].items()}
