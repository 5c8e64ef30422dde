"""An independent, slow, straightforward legality oracle for Thebes.

It reads nothing of the engine but a state's JSON document (`state.to_json()`) and the raw component data
(`data.json`), and writes the rules out once more, the plain way, from the seeds and RULES.md: it builds every
action text a player could name and keeps those the rules allow. Tests compare its answer with
`legal_actions()`; any difference is a missing legal action or a wrongly legal one.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

DATA = json.loads((Path(__file__).resolve().parents[3] / "arena/games/thebes/data.json").read_text())
SITES = DATA["sites"]
DIST = DATA["distance_weeks"]          # the printed table, not the engine's own shortest paths
WHEEL = {int(k): row for k, row in DATA["time_wheel"]["rows"].items()}
CARDS = {c["id"]: c for c in DATA["researcher_cards"]}
EXHIBITIONS = {x["id"]: x for x in DATA["exhibition_cards"]}
END = 3 * 52               # week 1 of 1904, weeks after week 1 of 1901
FINAL_YEAR = 2 * 52        # week 1 of 1903
DIG_FLAGS = ("zeppelin", "rumors", "assistant", "shovel", "permission", "nocar")


def current_seat(doc: dict[str, Any]) -> int:
    """Furthest back acts; on one space the marker that arrived last (on top of the stack)."""
    waiting = [(s["time"], -s["arrival"], p) for p, s in enumerate(doc["seats"]) if s["time"] < END]
    return min(waiting)[2] if waiting else -1


def _travel_options(seat: dict[str, Any], cards: list[dict], dest: str) -> list[tuple[str, int]]:
    """(suffix, weeks) of each way to make the trip: drive (the car, if held, saves a week on 3+ segments),
    decline the car, or fly a zeppelin (only when there is a trip)."""
    d = DIST[seat["place"]][dest]
    has_car = any(c["kind"] == "car" for c in cards)
    options = [("", d - 1 if has_car and d >= 3 else d)]
    if has_car and d >= 3:
        options.append((" nocar", d))
    if d > 0 and any(c["kind"] == "zeppelin" for c in cards):
        options.append((" zeppelin", 0))
    return options


def legal_texts(doc: dict[str, Any]) -> set[str]:
    """Every legal action text of the player to act in the position `doc` (a `to_json()` document)."""
    return set(legal_moves(doc))


def legal_moves(doc: dict[str, Any]) -> dict[str, tuple[int, str]]:
    """Every legal action text of the player to act, with the weeks it costs (trip included) and the place the
    archaeologist ends on."""
    p = current_seat(doc)
    if p < 0:
        return {}
    seat = doc["seats"][p]
    rem = END - seat["time"]
    cards = [CARDS[c] for c in seat["cards"]]
    tokens = [t.split("/") for t in seat["tokens"]]
    out: dict[str, tuple[int, str]] = {}

    for cid in doc["display"]:
        if cid:
            for suffix, weeks in _travel_options(seat, cards, CARDS[cid]["city"]):
                if weeks + CARDS[cid]["weeks"] <= rem:
                    out[f"take {cid}{suffix}"] = (weeks + CARDS[cid]["weeks"], CARDS[cid]["city"])

    artifacts = {s: sum(1 for site, name in tokens if site == s and name.startswith("artifact")) for s in SITES}
    for xid in doc["exhibitions"]:
        if xid and all(artifacts[s] >= n for s, n in EXHIBITIONS[xid]["requirements"].items()):
            for suffix, weeks in _travel_options(seat, cards, EXHIBITIONS[xid]["city"]):
                if weeks + EXHIBITIONS[xid]["weeks"] <= rem:
                    out[f"exhibit {xid}{suffix}"] = (weeks + EXHIBITIONS[xid]["weeks"], EXHIBITIONS[xid]["city"])

    if any(doc["display"]) or doc["draw_pile"] or doc["stack3"] or doc["discard"]:
        run = doc["exchange_run"]
        cost = run["count"] + 1 if run["seat"] == p else 1
        for suffix, weeks in _travel_options(seat, cards, "warsaw"):
            if weeks + cost <= rem:
                out[f"exchange{suffix}"] = (weeks + cost, "warsaw")

    kinds = [c["kind"] for c in cards]
    general = sum(c["value"] for c in cards if c["kind"] == "general_knowledge") \
        + sum(1 for _, name in tokens if name == "general")
    for site in SITES:
        books = sum(c["value"] for c in cards if c["kind"] == "specialized_knowledge" and c["site"] == site) \
            + sum(1 for _, name in tokens if name == f"specialized-{site}")
        permit_used = site in seat["permits_used"]
        travel = dict(_travel_options(seat, cards, site))
        for chosen in itertools.chain.from_iterable(
                itertools.combinations(DIG_FLAGS, k) for k in range(len(DIG_FLAGS) + 1)):
            if "zeppelin" in chosen and "nocar" in chosen:
                continue
            if permit_used != ("permission" in chosen):
                continue  # a used permit needs a special permission; a valid one makes the card pointless
            if "permission" in chosen and "special_permission" not in kinds:
                continue
            if "rumors" in chosen and not any(c["kind"] == "rumors" and c["site"] == site for c in cards):
                continue
            if "assistant" in chosen and kinds.count("assistant") != 1:
                continue
            if "shovel" in chosen and kinds.count("shovel") != 1:
                continue
            way = " zeppelin" if "zeppelin" in chosen else " nocar" if "nocar" in chosen else ""
            if way not in travel:
                continue
            assistants = kinds.count("assistant")
            specialized = books + (2 if assistants >= 3 else 1 if assistants == 2 else 0) \
                + (2 if "rumors" in chosen else 0) + (1 if "assistant" in chosen else 0)
            if specialized < 1:
                continue
            knowledge = min(12, specialized + min(general, specialized))
            for weeks in range(1, 13):
                if WHEEL[knowledge][weeks - 1] > 0 and travel[way] + weeks <= rem:
                    flags = "".join(f" {f}" for f in DIG_FLAGS if f in chosen)
                    out[f"dig {site} {weeks}{flags}"] = (travel[way] + weeks, site)

    if seat["time"] >= FINAL_YEAR or not out:
        out["retire"] = (rem, seat["place"])
    return out
