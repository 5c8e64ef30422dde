"""Levels of the built-in bots: the same bot shipped at several strengths (bots/python/mcts-level1..3 search
0.1 s, 0.3 s and 1 s a decision) is registered as `<runtime>-<folder>-levelN[-<game>]`, e.g.
`python-mcts-level2-thebes`. On a ladder those bots form a ladder of opponents for new authors to climb ("beat
level 2"); the level is read from the name, so a new levelled built-in bot needs nothing but its folder name."""

from __future__ import annotations

import re

_LEVEL = re.compile(r"-level(\d+)(?:-|$)")


def level_of(name: str, builtin: bool) -> int | None:
    """The level of a built-in bot named `...-levelN[-game]`; None for any other bot (a user's bot may carry
    `level` in its name: it never reads as a house level)."""
    if not builtin:
        return None
    match = _LEVEL.search(name)
    return int(match.group(1)) if match else None
