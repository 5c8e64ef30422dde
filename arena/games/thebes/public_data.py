"""Thebes' derived tables for the published data document (`arena.games.public_data`): what the engine computes
from data.json at import, so a port can check its own derivation against it."""

from __future__ import annotations

from typing import Any

from arena.games.thebes import data as T

DESCRIPTIONS = {
    "card_order": "Every card id in the engine's index order: researcher cards, then exhibitions.",
    "places": "Every place id in the engine's index order (the rows and columns of the travel tables).",
    "distance_segments": "distance_segments[a][b]: the fewest route segments between places a and b.",
    "travel_weeks": 'travel_weeks["without_car"|"with_car"][a][b]: weeks a trip takes (a car saves its week '
                    "on trips of car_min_segments or more).",
    "car_min_segments": "The shortest trip, in segments, on which a car saves a week.",
    "time_wheel": "time_wheel[knowledge][weeks]: tokens a dig draws (knowledge 0..12, weeks 0..12; 0 = none).",
    "start_bags": "start_bags[site]: the tokens in the site's bag at setup (artifact1..7, specialized-<site>, "
                  "general, dirt); the first-dig bonus artifact lies beside it.",
    "start_time": "start_time[players]: the markers' start, in weeks since week 1 of 1901 (-1: the start space).",
    "end_time": "The end space, in weeks since week 1 of 1901 (week 1 of 1904).",
}


def derived() -> dict[str, Any]:
    return {
        "card_order": list(T.CARD_IDS),
        "places": list(T.PLACES),
        "distance_segments": [list(row) for row in T.DIST],
        "travel_weeks": {"without_car": [list(r) for r in T.TRIP[0]], "with_car": [list(r) for r in T.TRIP[1]]},
        "car_min_segments": T.CAR_MIN_SEGMENTS,
        "time_wheel": [list(row) for row in T.WHEEL],
        "start_bags": {site: [T.token_name(t) for t in T.START_BAGS[i]] for i, site in enumerate(T.SITES)},
        "start_time": {str(n): t for n, t in sorted(T.START_TIME.items())},
        "end_time": T.END_TIME,
    }
