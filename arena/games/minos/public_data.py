"""Minos' derived tables for the published data document (`arena.games.public_data`): what the engine computes
from data.json at import, so a port can check its own derivation against it."""

from __future__ import annotations

from typing import Any

from arena.games.minos import data as D

DESCRIPTIONS = {
    "deck_instances": 'deck_instances["I"|"II"]: every card copy as "<card id>#<copy>", in the order the deck '
                      "is built before its shuffle (action texts and observations name cards this way).",
    "adjacency": "adjacency[region]: the regions next to it, ascending.",
    "in_play": "in_play[players]: the regions on the map (solo plays on the 2-player map).",
    "dice": "dice[players]: the dice in play as \"<colour letter><k>\" ids, in the engine's order.",
    "sea_peoples_instances": 'sea_peoples_instances["1"|"2"]: every Sea Peoples tile copy by level.',
}


def derived() -> dict[str, Any]:
    dice = {}
    for n in (1, 2, 3, 4):
        dice[str(n)] = [f"{D.COLOUR_LETTER[c]}{k}" for c in D.COLOURS
                        for k in range(1, D.DATA["dice"]["colours"][c] - D.DICE_REMOVE[n][c] + 1)]
    return {
        "deck_instances": {era: list(cards) for era, cards in D.DECK_INSTANCES.items()},
        "adjacency": {str(r): list(adj) for r, adj in sorted(D.ADJ.items())},
        "in_play": {str(n): list(D.IN_PLAY[2 if n == 1 else n]) for n in (1, 2, 3, 4)},
        "dice": dice,
        "sea_peoples_instances": {str(level): list(t) for level, t in sorted(D.SEA_INSTANCES.items())},
    }
