"""The forced-decision option (`auto_single_action`) is a setting of a ladder (and of a tournament), on by
default: it travels with the time control onto every match the ladder queues, and the referee reads it there. A
match stored before the option existed (its time control without the key) plays with the default."""

import random

from platform_helpers import make_bot

from arena.match.types import TimeControl


def _queued_time_controls(ladder, make_user, settings):
    """Two bots of two owners (registered on the ladder, which exists first) and one round of matchmaking."""
    from matches.models import Match
    from matchmaking.services import matchmake

    make_bot(make_user(), "a1"), make_bot(make_user(), "b1")
    settings.ARENA_MATCHMAKING = {"max_pending_per_ladder": 10, "window": 4}
    created = matchmake(random.Random(1))
    assert created
    return [m.time_control for m in Match.objects.filter(pk__in=created, ladder=ladder)]


def test_a_ladder_applies_forced_decisions_by_default(db, make_user, settings):
    from ladders.models import Ladder

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    assert ladder.auto_single_action is True
    for tc in _queued_time_controls(ladder, make_user, settings):
        assert tc["auto_single_action"] is True and TimeControl(**tc).auto_single_action


def test_a_ladder_can_ask_the_bots_every_decision(db, make_user, settings):
    from ladders.models import Ladder

    ladder = Ladder.objects.create(slug="thebes-2p-asked", name="Thebes 2p asked", game="thebes", players=2,
                                   auto_single_action=False)
    tcs = _queued_time_controls(ladder, make_user, settings)
    assert tcs and all(TimeControl(**tc).auto_single_action is False for tc in tcs)


def test_a_match_stored_before_the_option_plays_with_the_default():
    stored = {"decision_ms": 1000, "bank_ms": 10_000, "startup_ms": 10_000, "max_faults": 3}
    assert TimeControl(**stored).auto_single_action is True
