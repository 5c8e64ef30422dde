"""Where every match seed comes from, and who may see it when.

A seed fixes every draw of a game: whoever knows it before or during a match can compute the deck, the hidden
cards and the other players' future draws. So

- every seed the platform makes (ladder matchmaking, challenges, version-test pairs, tournament secrets) comes
  from `new_seed`: `secrets`, 63 bits (the widest value a PostgreSQL `bigint` holds without a sign), never from
  a `random.Random` whose state could be recovered from the seeds it printed before;
- a tournament's game seeds are `derive_seed(secret, …)`, an HMAC keyed by the tournament's own secret, so
  knowing finished games' seeds says nothing about the next round's;
- a match's seed is public only once the match is over (finished, failed, cancelled) **and** no unfinished match shares it (a duplicate
  set's rotations and a version-test pair's two games are the same deal played again: the first one's seed
  would tell the deal of the others). Staff always see it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matches.models import Match

SEED_BITS = 63


def new_seed() -> int:
    """A fresh match seed: 63 unpredictable bits from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


def derive_seed(secret: int | str, *parts: object) -> int:
    """A game seed from a secret and the game's place in a schedule: stable across machines and runs (so a
    duplicate set replays one seed), unpredictable without the secret (HMAC-SHA256, 63 bits)."""
    message = ":".join(str(p) for p in parts).encode()
    digest = hmac.new(str(secret).encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def is_staff(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_staff)


def seed_is_public(match: Match) -> bool:
    """Whether anyone may see this match's seed: it is over (finished, failed or cancelled) and no match still to
    be played (or being played) uses the same seed. (The query goes through the match's own class, so that this
    module imports no model and `tournaments.schedule` can use `derive_seed` without Django.)"""
    if not match.done:
        return False
    matches = type(match).objects
    return not matches.filter(seed=match.seed).exclude(pk=match.pk).filter(
        status__in=[match.Status.QUEUED, match.Status.RUNNING]).exists()


def deal_visible(match: Match, user: Any) -> bool:
    """Whether this viewer may see what follows from the deal: the seed, the replay, every seat's fault messages
    (they can quote a bot's answer, and so its cards). Staff always; everyone once the seed is public."""
    return is_staff(user) or seed_is_public(match)


def visible_faults(faults: list[dict[str, Any]] | None, *, deal_visible: bool, own_seat: bool) -> list[dict[str, Any]]:
    """A seat's faults as this viewer may see them: kinds and turns always (the seat table shows them at once),
    the messages only to the seat's owner, or once the deal is visible. Each fault carries its `turn`
    (decision + 1, the viewer's numbering)."""
    out = []
    for fault in faults or []:
        turn = fault.get("turn", fault["decision"] + 1 if fault.get("decision") is not None else None)
        shown = {**fault, "turn": turn}
        if not (deal_visible or own_seat):
            shown["message"] = "(shown once every match played with this seed is over)"
        out.append(shown)
    return out


def visible_seed(match: Match | None, user: Any) -> int | None:
    """The match's seed for this viewer, or None while it must stay hidden."""
    if match is None:
        return None
    return match.seed if deal_visible(match, user) else None
