"""Thebes component data (`data.json`, loaded once at import) turned into flat integer tables.

Everything the engine needs at play time is an int or a tuple of ints indexed by small integers:
places 0..11 (cities, Warsaw, then the five sites), sites 0..4 (place index = SITE_PLACE0 + site), cards
0..94 (researcher cards R01..R85 are 0..84, exhibitions X01..X10 are 85..94).
"""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from typing import Final

# found through the package, not __file__: the compiled module (mypyc) has no __file__ beside data.json
DATA_PATH: Final = resources.files("arena.games.thebes").joinpath("data.json")
DATA: Final[dict] = json.loads(DATA_PATH.read_text(encoding="utf-8"))

# --- places and routes ---------------------------------------------------------------------------------------
PLACES: Final[tuple[str, ...]] = tuple(p["id"] for p in DATA["places"])
PLACE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(PLACES)}
SITES: Final[tuple[str, ...]] = tuple(DATA["sites"])
SITE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(SITES)}
SITE_PLACE: Final[tuple[int, ...]] = tuple(PLACE_INDEX[s] for s in SITES)
WARSAW: Final[int] = PLACE_INDEX["warsaw"]
START_PLACE: Final[int] = PLACE_INDEX[DATA["setup"]["start_place"]]
EDGES: Final[tuple[tuple[int, int], ...]] = tuple((PLACE_INDEX[a], PLACE_INDEX[b]) for a, b in DATA["edges"])


def _bfs_distances() -> tuple[tuple[int, ...], ...]:
    """Shortest paths in route segments, computed from the edges (tests check them against the data's table)."""
    adj: list[list[int]] = [[] for _ in PLACES]
    for a, b in EDGES:
        adj[a].append(b)
        adj[b].append(a)
    table = []
    for src in range(len(PLACES)):
        dist = [-1] * len(PLACES)
        dist[src] = 0
        todo = deque([src])
        while todo:
            here = todo.popleft()
            for nxt in adj[here]:
                if dist[nxt] < 0:
                    dist[nxt] = dist[here] + 1
                    todo.append(nxt)
        table.append(tuple(d * DATA["edge_cost_weeks"] for d in dist))
    return tuple(table)


#: DIST[a][b]: weeks of travel between places a and b (shortest path, before car or zeppelin).
DIST: Final[tuple[tuple[int, ...], ...]] = _bfs_distances()
CAR_MIN_SEGMENTS: Final[int] = DATA["card_effects"]["car"]["trip_min_segments"]
CAR_SAVES: Final[int] = DATA["card_effects"]["car"]["weeks_saved"]
#: TRIP[has_car][a][b]: weeks of the trip from a to b without (0) or with (1) a car (NOTES decision 3)
TRIP: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (
    DIST, tuple(tuple(d - CAR_SAVES if d >= CAR_MIN_SEGMENTS else d for d in row) for row in DIST))

# --- time ----------------------------------------------------------------------------------------------------
WEEKS_PER_YEAR: Final = 52
BASE_YEAR: Final = 1901  # time 0 is week 1 of 1901; a marker's time is (year - 1901) * 52 + (week - 1)


def to_time(year: int, week: int) -> int:
    return (year - BASE_YEAR) * WEEKS_PER_YEAR + week - 1


def year_week(time: int) -> tuple[int, int]:
    return BASE_YEAR + time // WEEKS_PER_YEAR, time % WEEKS_PER_YEAR + 1


END_TIME: Final[int] = to_time(DATA["setup"]["end"]["year"], DATA["setup"]["end"]["week"])  # week 1 of 1904
FINAL_YEAR_TIME: Final[int] = END_TIME - WEEKS_PER_YEAR  # week 1 of 1903: retiring is allowed from here on
#: START_YEAR_WEEK[players]: where the markers start. The seeds speak here and override data.json's "week 1":
#: with 2 or 4 players the markers start on the start space, before week 1 (seed 001 "Place all time markers in
#: a stack on the start space (with 2 or 4 players). With 3 players, place the time markers on space 16"; seed
#: 003 puts them on "0"), so a first action of w weeks ends on week w. Week 0 stands for the start space.
START_YEAR_WEEK: Final[dict[int, tuple[int, int]]] = {
    int(n): (v["year"], v["week"] if int(n) == 3 else 0) for n, v in DATA["setup"]["start"].items()}
#: START_TIME[players]: the markers' start time (the start space of 1901 is time -1, of 1902 time 51).
START_TIME: Final[dict[int, int]] = {n: to_time(y, w) for n, (y, w) in START_YEAR_WEEK.items()}
EARLIEST_TIME: Final[int] = min(START_TIME.values())


def marker_year_week(time: int, players: int) -> tuple[int, int]:
    """The (year, week) a marker shows: week 0 of the start year while it stands on the start space."""
    if time == START_TIME[players]:
        return START_YEAR_WEEK[players]
    return year_week(time)
PERMITS_PER_PLAYER: Final[int] = DATA["setup"]["permits_per_player"]

# --- time wheel ----------------------------------------------------------------------------------------------
KNOWLEDGE_CAP: Final[int] = DATA["time_wheel"]["knowledge_cap"]
WEEKS_MAX: Final[int] = DATA["time_wheel"]["weeks_max"]
#: WHEEL[knowledge][weeks] = tokens drawn (knowledge 0..12, weeks 0..12; row 0 and column 0 are all 0).
WHEEL: Final[tuple[tuple[int, ...], ...]] = tuple(
    (0,) * (WEEKS_MAX + 1) if k == 0 else (0, *DATA["time_wheel"]["rows"][str(k)])
    for k in range(KNOWLEDGE_CAP + 1))
#: WHEEL_MIN_WEEKS[knowledge]: fewest weeks that draw at least one token (13 = no dig possible).
WHEEL_MIN_WEEKS: Final[tuple[int, ...]] = tuple(
    next((w for w in range(1, WEEKS_MAX + 1) if WHEEL[k][w] > 0), WEEKS_MAX + 1) for k in range(KNOWLEDGE_CAP + 1))

# --- cards ---------------------------------------------------------------------------------------------------
K_SPECIAL_PERMISSION: Final = 0
K_ZEPPELIN: Final = 1
K_CAR: Final = 2
K_CONGRESS: Final = 3
K_ASSISTANT: Final = 4
K_SHOVEL: Final = 5
K_GENERAL: Final = 6
K_SPECIALIZED: Final = 7
K_RUMORS: Final = 8
K_EXHIBITION: Final = 9
KIND_NAMES: Final[tuple[str, ...]] = ("special_permission", "zeppelin", "car", "congress", "assistant", "shovel",
                               "general_knowledge", "specialized_knowledge", "rumors", "exhibition")
_KIND_CODE: Final = {name: i for i, name in enumerate(KIND_NAMES)}

_researchers = DATA["researcher_cards"]
_exhibitions = DATA["exhibition_cards"]
N_RESEARCHERS: Final[int] = len(_researchers)
N_CARDS: Final[int] = N_RESEARCHERS + len(_exhibitions)
CARD_IDS: Final[tuple[str, ...]] = tuple(c["id"] for c in _researchers) + tuple(x["id"] for x in _exhibitions)
CARD_INDEX: Final[dict[str, int]] = {cid: i for i, cid in enumerate(CARD_IDS)}
CARD_KIND: Final[tuple[int, ...]] = tuple(_KIND_CODE[c["kind"]] for c in _researchers) + (K_EXHIBITION,) * len(_exhibitions)
CARD_CITY: Final[tuple[int, ...]] = tuple(PLACE_INDEX[c["city"]] for c in _researchers + _exhibitions)
CARD_WEEKS: Final[tuple[int, ...]] = tuple(c["weeks"] for c in _researchers + _exhibitions)
CARD_SITE: Final[tuple[int, ...]] = tuple(SITE_INDEX[c["site"]] if "site" in c else -1 for c in _researchers) \
    + (-1,) * len(_exhibitions)
#: knowledge points of knowledge/rumors cards, exhibition points for exhibitions, 0 otherwise
CARD_VALUE: Final[tuple[int, ...]] = tuple(c.get("value", 0) for c in _researchers) + tuple(x["points"] for x in _exhibitions)
#: EXHIBITION_REQ[card]: artifacts needed per site (all zero for researcher cards)
EXHIBITION_REQ: Final[tuple[tuple[int, ...], ...]] = ((0,) * len(SITES),) * N_RESEARCHERS + tuple(
    tuple(x["requirements"].get(s, 0) for s in SITES) for x in _exhibitions)
EXHIBITION_SIZE: Final[tuple[str, ...]] = ("",) * N_RESEARCHERS + tuple(x["size"] for x in _exhibitions)
SMALL_EXHIBITIONS: Final[tuple[int, ...]] = tuple(i for i in range(N_RESEARCHERS, N_CARDS) if EXHIBITION_SIZE[i] == "small")
LARGE_EXHIBITIONS: Final[tuple[int, ...]] = tuple(i for i in range(N_RESEARCHERS, N_CARDS) if EXHIBITION_SIZE[i] == "large")
DISPLAY_SLOTS: Final[int] = DATA["researcher_display_slots"]
EXHIBITION_SLOTS: Final[tuple[str, ...]] = tuple(DATA["exhibition_display_slots"])

# Assistant and shovel cards: bonus by how many are held (decision 2: capped at the 3-card value).
ASSISTANT_BONUS: Final[tuple[int, ...]] = (0, 0, 1, 2)
SHOVEL_BONUS: Final[tuple[int, ...]] = (0, 0, 1, 2)

# --- tokens --------------------------------------------------------------------------------------------------
# A token is a small int: 0 dirt, 1..7 an artifact of that value, 8 general knowledge, 10+s specialized
# knowledge for site s.
DIRT, GENERAL_TOKEN, SPECIALIZED_TOKEN0 = 0, 8, 10
BONUS_ARTIFACT_VALUE: Final[int] = DATA["bags"][SITES[0]]["first_dig_bonus_artifact_value"]


def token_name(token: int) -> str:
    if token == DIRT:
        return "dirt"
    if token == GENERAL_TOKEN:
        return "general"
    if token >= SPECIALIZED_TOKEN0:
        return "specialized-" + SITES[token - SPECIALIZED_TOKEN0]
    return f"artifact{token}"


def parse_token(name: str) -> int:
    if name == "dirt":
        return DIRT
    if name == "general":
        return GENERAL_TOKEN
    if name.startswith("specialized-") and name[12:] in SITE_INDEX:
        return SPECIALIZED_TOKEN0 + SITE_INDEX[name[12:]]
    if name.startswith("artifact") and name[8:].isdigit() and 1 <= int(name[8:]) <= 7:
        return int(name[8:])
    raise ValueError(f"unknown token {name!r}")


def _start_bag(site: str) -> tuple[int, ...]:
    bag = DATA["bags"][site]
    tokens = list(bag["artifact_values_in_bag_at_start"])
    spec = bag["specialized_knowledge_token"]
    tokens += [SPECIALIZED_TOKEN0 + SITE_INDEX[spec["site"]]] * spec["count"]
    tokens += [GENERAL_TOKEN] * bag["general_knowledge_token"]["count"]
    tokens += [DIRT] * bag["dirt_count"]
    assert len(tokens) == bag["tokens_in_bag_at_start"], site
    return tuple(sorted(tokens))


#: START_BAGS[site]: the bag's tokens at setup, sorted (the first-dig bonus artifact is on the board instead).
START_BAGS: Final[tuple[tuple[int, ...], ...]] = tuple(_start_bag(s) for s in SITES)

# --- scoring -------------------------------------------------------------------------------------------------
_congress = DATA["congress_scoring"]
CONGRESS_POINTS: Final[tuple[int, ...]] = (0,) + tuple(_congress["by_count"][str(n)] for n in range(1, _congress["max_counted"] + 1))
CONGRESS_MAX_COUNTED: Final[int] = _congress["max_counted"]
MAJORITY_SOLE: Final[int] = DATA["end_scoring"]["specialized_knowledge_majority"]["sole_leader"]
MAJORITY_TIED: Final[int] = DATA["end_scoring"]["specialized_knowledge_majority"]["each_tied_leader"]


def congress_points(count: int) -> int:
    return CONGRESS_POINTS[min(count, CONGRESS_MAX_COUNTED)]
