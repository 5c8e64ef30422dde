"""Running a version test: schedule pairs of unrated matches, score each finished pair, update the SPRT, stop.

`advance` is idempotent and serialised per test (a row lock): the after-match hook and the periodic tick may
both call it at any time.
"""

from __future__ import annotations

import logging
import random

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from botregistry.models import BotVersion
from botregistry.ownership import can_play, stakes
from botregistry.services import set_active_version
from ladders.models import Rating
from ladders.rating import share_beaten
from matches.models import Match
from matches.seeds import new_seed
from matches.services import cancel, create_match
from matchmaking.rules import pick_opponents
from matchmaking.services import ready_candidates
from teams.models import Team

from . import stats
from .models import Pair, VersionTest
from .signals import version_test_ended

log = logging.getLogger("arena.versiontests")

PAIRS_IN_FLIGHT = 2      # pairs queued or running at once per test: keeps workers busy without hogging them


class TestRefused(ValueError):
    """Why a test can't be created (shown to the owner as a 400)."""


def quota() -> int:
    return getattr(settings, "ARENA_VERSION_TESTS_PER_OWNER", 2)


def create(*, owner, version_a: BotVersion, version_b: BotVersion, ladder, elo0: float = stats.DEFAULT_ELO0,
           elo1: float = stats.DEFAULT_ELO1, max_pairs: int = stats.DEFAULT_MAX_PAIRS, promote: bool = False,
           rng: random.Random | None = None) -> VersionTest:
    """A running test with its first pairs queued. Raises `TestRefused` with a reason a human understands."""
    bot = version_a.bot
    if version_b.bot_id != bot.pk:
        raise TestRefused("both versions must belong to the same bot")
    if version_a.pk == version_b.pk:
        raise TestRefused("choose two different versions")
    if not can_play(owner, bot):
        raise TestRefused("only the bot's owner (a team bot: the team's members) can test its versions")
    for v in (version_a, version_b):
        if v.status != BotVersion.Status.READY:
            raise TestRefused(f"version {v.number} is {v.status}, not ready")
    if ladder.game != bot.game:
        raise TestRefused(f"ladder {ladder.slug} plays {ladder.game}, the bot plays {bot.game}")
    if not elo0 < elo1:
        raise TestRefused("elo0 must be smaller than elo1")
    with transaction.atomic():
        # the quota is per entrant (a team bot: its team's tests, whoever started them; a personal bot: the
        # owner's tests of personal bots); lock its row so two concurrent requests can't both pass it
        if bot.team_id is not None:
            team = Team.objects.select_for_update().get(pk=bot.team_id)
            running_q = VersionTest.objects.filter(bot__team_id=bot.team_id)
            whose = f"team {team.name} has"
        else:
            type(owner).objects.select_for_update().get(pk=owner.pk)
            running_q = VersionTest.objects.filter(owner=owner, bot__team__isnull=True)
            whose = "you have"
        running = running_q.filter(status=VersionTest.Status.RUNNING).count()
        if running >= quota():
            raise TestRefused(f"{whose} {running} running version tests; the limit is {quota()}")
        test = VersionTest.objects.create(owner=owner, bot=bot, version_a=version_a, version_b=version_b,
                                          ladder=ladder, elo0=elo0, elo1=elo1, max_pairs=max_pairs,
                                          promote=promote,
                                          counts=[0] * stats.grid_size(ladder.players))
        if not _schedule(test, rng or random.Random()):
            raise TestRefused(f"no opponents: ladder {ladder.slug} has too few ready bots of other owners")
    return test


def advance(test_id: int, rng: random.Random | None = None) -> None:
    """Score the pairs whose two matches are done, update the SPRT, then stop or queue more pairs."""
    with transaction.atomic():
        test = VersionTest.objects.select_for_update().get(pk=test_id)
        if test.status != VersionTest.Status.RUNNING:
            return
        for pair in test.pair_set.filter(score__isnull=True, void=False).select_related("match_a", "match_b"):
            _score(pair)
        scored: list[float] = [s for s in test.pair_set.filter(score__isnull=False).values_list("score", flat=True)
                               if s is not None]
        test.void_pairs = test.pair_set.filter(void=True).count()
        test.counts = stats.counts_of(scored, test.ladder.players)
        summary = stats.summarize(test.counts, test.elo0, test.elo1, history=scored)  # scored: by pair number
        test.pairs, test.llr, test.result = summary.pairs, summary.llr, summary.to_dict()
        test.save(update_fields=["pairs", "void_pairs", "counts", "llr", "result"])
        if summary.decision:
            accepted = summary.decision == "accepted"
            _stop(test, summary.decision, f"LLR {summary.llr:.2f} reached the {'upper' if accepted else 'lower'} "
                  f"bound ({summary.stop_upper if accepted else summary.stop_lower:.2f} after the overshoot "
                  f"correction) after {summary.pairs} pairs")
        elif test.pairs >= test.max_pairs:
            _stop(test, VersionTest.Status.STOPPED, f"no decision after the maximum of {test.max_pairs} pairs")
        elif test.void_pairs > max(3, test.max_pairs // 4):
            _stop(test, VersionTest.Status.STOPPED, f"{test.void_pairs} pairs lost to failed matches")
        elif not _schedule(test, rng or random.Random()) and not _in_flight(test):
            _stop(test, VersionTest.Status.STOPPED, "no opponents left on the ladder")


def stop(test_id: int, reason: str = "stopped by its owner") -> bool:
    with transaction.atomic():
        test = VersionTest.objects.select_for_update().get(pk=test_id)
        if test.status != VersionTest.Status.RUNNING:
            return False
        _stop(test, VersionTest.Status.STOPPED, reason)
        return True


def tick() -> None:
    """The periodic safety net: advance every running test (a hook missed by a dead worker is caught here)."""
    for tid in VersionTest.objects.filter(status=VersionTest.Status.RUNNING).values_list("pk", flat=True):
        advance(tid)


# ------------------------------------------------------------------------------------------------ internals

def _in_flight(test: VersionTest) -> int:
    return test.pair_set.filter(score__isnull=True, void=False).count()


def _score(pair: Pair) -> None:
    a, b = pair.match_a, pair.match_b
    if not (a.done and b.done):
        return
    if a.status != Match.Status.FINISHED or b.status != Match.Status.FINISHED:
        pair.void = True
        pair.save(update_fields=["void"])
        return
    pair.score = stats.pair_score(_seat_score(a, pair.seat), _seat_score(b, pair.seat))
    pair.save(update_fields=["score"])


def _seat_score(match: Match, seat: int) -> float:
    ranks = {p.seat: p.rank for p in match.participants.all()}
    last = len(ranks)
    mine = ranks[seat] or last
    return share_beaten(mine, [r or last for s, r in ranks.items() if s != seat])


def _opponents(test: VersionTest, rng: random.Random) -> list[int] | None:
    """Version ids of players−1 opponents: ready bots of the ladder near the bot's rating, never the owner's,
    never two of one owner (house bots excepted): `matchmaking.rules.pick_opponents`, random among the
    `ARENA_MATCHMAKING["window"]` nearest per seat."""
    ladder = test.ladder
    window = settings.ARENA_MATCHMAKING.get("window", 4)
    # the leaderboard rating (ladders.rating_fit); opponents near it are about as strong as A, which the
    # head-to-head reading of the pair scores assumes (stats.pair_elo)
    mine = Rating.objects.filter(ladder=ladder, bot=test.bot).values_list("rating", flat=True).first()
    mine = settings.ARENA_RATING["initial_elo"] if mine is None else mine
    # no bot with a stake in common with the tested one (matchmaking rule 3: its team and the team's members, or
    # its owner), nor a bot of who started the test
    exclude = set(stakes(test.bot)) | {("user", test.owner_id)}
    pool = [c for c in ready_candidates(ladder) if not c.stakes & exclude]
    picked = pick_opponents(mine, exclude, pool, ladder.players - 1, rng, window)
    return None if picked is None else [c.version_id for c in picked]


def _schedule(test: VersionTest, rng: random.Random) -> bool:
    """Queue pairs up to PAIRS_IN_FLIGHT (and max_pairs in all). False when opponents ran out."""
    ladder = test.ladder
    made = test.pair_set.count()
    counted = test.pair_set.filter(void=False).count()
    for _ in range(PAIRS_IN_FLIGHT - _in_flight(test)):
        if counted >= test.max_pairs:
            break
        opponents = _opponents(test, rng)
        if opponents is None:
            return False
        seat = rng.randrange(ladder.players)
        seed = new_seed()  # both games of the pair share it; hidden until both are over (matches.seeds)
        matches: list[Match] = []
        for version in (test.version_a_id, test.version_b_id):
            seats = list(opponents)
            seats.insert(seat, version)
            # B's game waits for A's: two games of one deal never run at once, so no channel between sandboxes
            # (timing, load) carries one instance's view of the deal to the other (issue 22, 1)
            matches.append(create_match(game=ladder.game, params=ladder.game_params,
                                        time_control=ladder.time_control.to_dict(), versions=seats,
                                        kind=Match.Kind.VERSION_TEST, rated=False, requested_by=test.owner,
                                        seed=seed, after=matches[0] if matches else None))
        made += 1
        counted += 1
        Pair.objects.create(test=test, number=made, seed=seed, seat=seat, match_a=matches[0], match_b=matches[1])
    return True


def _promote(test: VersionTest) -> str:
    """Make version B the bot's active version (as an owner's switch does: σ widens). The reason's suffix."""
    b = BotVersion.objects.select_related("bot").get(pk=test.version_b_id)
    if b.status != BotVersion.Status.READY:
        return f"; version {b.number} not promoted: it is {b.status}"
    changed = set_active_version(b.bot, b)
    return f"; version {b.number} promoted to active" if changed else f"; version {b.number} was already active"


def _stop(test: VersionTest, status: str, reason: str) -> None:
    if status == VersionTest.Status.ACCEPTED and test.promote:
        reason += _promote(test)
    test.status, test.status_reason, test.finished_at = status, reason, timezone.now()
    test.save(update_fields=["status", "status_reason", "finished_at"])
    # the pairs still queued can't change the verdict any more: don't spend workers on them
    pending = test.pair_set.filter(score__isnull=True, void=False)
    cancel([m for p in pending.values_list("match_a_id", "match_b_id") for m in p],
           f"version test {test.pk} ended: {reason}")
    log.info("version test %s %s: %s", test.pk, status, reason)
    test_id = test.pk
    transaction.on_commit(lambda: version_test_ended.send_robust(sender=VersionTest, test_id=test_id))
