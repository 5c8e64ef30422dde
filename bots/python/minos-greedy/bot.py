"""Minos greedy bot: scores every legal action by what it usually brings and plays the best (ties: random).

It reads only the canonical action texts (see proto/arena/v1/minos.proto for their forms), so it needs no model
of the board: cities, farms, card plays (more for high-VP cards), fights and traits first; forgoing, finishing a
main action early and declining last. Card VPs travel with the bot in minos_cards.json (bots have no network).
"""

import json
from pathlib import Path

from arena_bot import Bot, run

CARD_VP = json.loads((Path(__file__).parent / "minos_cards.json").read_text())["card_vp"]
KIND_WORTH = {"city": 9, "farm": 7, "tower": 6, "ship": 5, "step": 4, "trait": 10, "bonus": 10, "deploy": 3,
              "march": 1, "recruit": 2, "offer": 3, "deck": 2, "end": -5, "move": 5, "fight": 6, "good": 1,
              "track": 2, "tile": 2, "stop": -1, "decline": -2}
ROW_WORTH = {"build": 3, "expand": 2.5, "develop": 2, "prepare": 1.5, "wild": 2}
EXTRA_WORTH = {"fight": 8, "craft": 6, "barter": 1}


def worth(text):
    kind, *args = text.split(":")
    if kind == "main":
        return {"forgo": -3, "finish": -4}.get(args[0], 6)
    if kind == "extra":
        return EXTRA_WORTH[args[0]]
    if kind == "draft":
        return ROW_WORTH[args[1]]
    if kind == "groups":
        return 0 if args[0] == "none" else 1 + args[0].count(",")
    if kind == "play":
        return 8 + CARD_VP[args[0].split("#")[0]] / 2
    if kind == "move":  # into the palace: the card's VP counts at the end
        return 5 + CARD_VP[args[0].split("#")[0]] / 2
    value = KIND_WORTH.get(kind, 0)
    if kind in ("deploy", "march") and len(args) > 2:
        value += 0.5  # 2 warriors per point rather than 1
    return value


class MinosGreedy(Bot):
    def decide(self, request):
        values = [worth(a.text) for a in request.legal_actions]
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])


if __name__ == "__main__":
    run(MinosGreedy())
