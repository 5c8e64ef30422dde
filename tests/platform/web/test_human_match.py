"""A match of kind human, played by a real Celery worker (on the people's queue, settings.ARENA_HUMAN_QUEUE)
against the sandboxed built-in random bot: a scripted person answers every decision through
`POST /matches/<id>/play/` and the whole Thebes game ends, unrated, with a replay that verifies; a person who never
answers loses on time (faults, then disqualification), the match still ends and nothing is left waiting."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.platform.web.test_play_bridge import client_of, next_turn, play_to_the_end

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db(transaction=True), pytest.mark.timeout(400)]

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def opponent(db):
    from botregistry.models import Bot

    call_command("ensure_ladders", verbosity=0)
    call_command("register_builtin_bots", str(ROOT / "bots" / "python" / "random"), verbosity=0)
    return Bot.objects.get(builtin=True, game="thebes")


def running(match):
    from matches.models import Match

    return lambda: not Match.objects.get(pk=match.pk).done


def test_a_person_plays_a_whole_unrated_game_against_the_random_bot_on_a_real_worker(celery_worker, opponent,
                                                                                   make_user):
    from arena import replay as replays
    from ladders.models import Rating
    from matches.models import Match
    from matches.services import create_human_match

    me = make_user("ann")
    ratings_before = list(Rating.objects.filter(bot=opponent).values_list("elo", "games"))
    match = create_human_match(user=me, game="thebes", players=2, seat=1, opponents=[opponent.playing_version],
                               clock={"decision_ms": 60_000, "bank_ms": 60_000})
    assert match.kind == Match.Kind.HUMAN and not match.rated and match.people == {"1": me.pk}
    c = client_of(me)
    other = client_of(make_user("bea"))
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert "data-play-url" in page and 'data-seat="1"' in page  # the person's panel and their seat's view
    assert "data-play-url" not in other.get(f"/matches/{match.pk}/").content.decode()
    assert other.get(f"/matches/{match.pk}/live/", {"seat": 1}).status_code == 403  # nobody else sees the seat
    answered = play_to_the_end(c, match, running(match), next_turn(c, match, running(match), None, 1, 240), 5, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    assert answered > 5
    seat = match.result["seats"][1]
    assert seat["name"] == "ann" and not seat.get("faults") and not seat.get("disqualified")
    replays.verify(replays.load(match.replay_file))
    assert "data-play-again" in c.get(f"/matches/{match.pk}/").content.decode()  # the replay and "play again"  # the game replays from seed, engine and actions
    bot_seat = match.participants.get()
    assert bot_seat.seat == 0 and bot_seat.elo_before is None and bot_seat.elo_after is None
    assert list(Rating.objects.filter(bot=opponent).values_list("elo", "games")) == ratings_before  # unrated


def test_a_person_who_never_answers_loses_on_time_and_the_match_ends(celery_worker, opponent, make_user):
    from matches import live, people
    from matches.models import Match
    from matches.services import create_human_match

    me = make_user("gone")
    match = create_human_match(user=me, game="thebes", players=2, seat=0, opponents=[opponent.playing_version],
                               clock={"decision_ms": 300, "bank_ms": 300, "max_faults": 2})
    done = running(match)
    import time
    deadline = time.monotonic() + 300
    while done() and time.monotonic() < deadline:
        time.sleep(0.5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seat = match.result["seats"][0]
    assert seat["disqualified"]
    assert [f["kind"] for f in seat["faults"]] == ["timeout"] * 3 + ["disqualified"]
    conn = live.client()
    try:
        assert not conn.exists(people.turn_key(match.pk, 0), people.answer_key(match.pk, 0))
    finally:
        conn.close()


def test_a_resigned_persons_match_frees_the_worker_at_once_and_teardown_resigns_what_a_failed_test_left(
        celery_worker, opponent, make_user):
    """A person on a clock of minutes is asked, and resigns through the teardown's helper (what runs after every
    worker test: a failed one cannot leave its match waiting on people's clocks): the bot finishes the game on
    its own at once, the person's seat ranks last, the replay verifies, the worker is free for the next match."""
    import time

    from arena import replay as replays
    from matches.models import Match
    from matches.services import create_human_match
    from tests.platform.conftest import resign_people_of_unfinished_matches

    me = make_user("quits")
    match = create_human_match(user=me, game="thebes", players=2, seat=0, opponents=[opponent.playing_version],
                               clock={"decision_ms": 600_000, "bank_ms": 600_000})
    c = client_of(me)
    assert next_turn(c, match, running(match), None, 0, 240) is not None  # the worker waits on the person
    assert resign_people_of_unfinished_matches() == 1
    assert resign_people_of_unfinished_matches() == 0  # once
    deadline = time.monotonic() + 240  # generous: far below the person's 20 minutes of clock, whatever the host
    while running(match)() and time.monotonic() < deadline:
        time.sleep(0.5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    seat = match.result["seats"][0]
    assert seat["disqualified"] and seat["rank"] == 2
    assert [f["kind"] for f in seat["faults"]] == ["resigned", "disqualified"]
    replays.verify(replays.load(match.replay_file))
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert "resigned" in page  # the seats table says what happened
    # the worker is free: the next match of people is played
    again = create_human_match(user=me, game="thebes", players=2, seat=0, opponents=[opponent.playing_version],
                               clock={"decision_ms": 600_000, "bank_ms": 600_000})
    assert next_turn(c, again, running(again), None, 0, 240) is not None
