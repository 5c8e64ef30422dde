"""The platform reads the referee's result typed (`MatchResult`, fault kinds as `FaultKind`) and stores its JSON
form: the database keeps the kinds' strings, and a result that is not one is refused before anything is stored."""

import pytest
from platform_helpers import make_bot

from arena.match.types import Fault, FaultKind, MatchResult, SeatResult


@pytest.fixture
def match(db, make_user):
    from ladders.models import Ladder
    from matches.services import create_match

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    return create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                        versions=[a.active_version_id, b.active_version_id], ladder=ladder, queue=False)


def result_of(match, kind=FaultKind.TIMEOUT) -> MatchResult:
    return MatchResult(game=match.game, params=match.params, seed=match.seed, engine_version="thebes-1", seats=[
        SeatResult(seat=0, name="alpha", sha256="0" * 64, score=5.0, rank=1, time_ms=10.0, decisions=20),
        SeatResult(seat=1, name="beta", sha256="1" * 64, score=2.0, rank=2, time_ms=30.0, decisions=20,
                   faults=[Fault(kind, "no answer within 1000 ms", decision=6)])],
        replay_path="/tmp/elsewhere.replay.json.gz")


def test_a_typed_result_is_stored_as_its_json_form(match):
    from matches.models import Match
    from matches.services import record_result

    result = result_of(match)
    assert record_result(match.pk, result) is True
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED and match.engine_version == "thebes-1"
    expected = result.to_json()
    del expected["replay_path"]
    assert match.result == expected
    beta = match.participants.get(seat=1)
    assert (beta.rank, beta.score, beta.time_ms, beta.decisions) == (2, 2.0, 30.0, 20)
    assert [f["kind"] for f in beta.faults] == ["timeout"]  # the enum's value, as the API has always shown it
    assert MatchResult.from_json(match.result).seats[1].faults[0].kind is FaultKind.TIMEOUT


def test_a_result_naming_an_unknown_fault_kind_is_refused_and_nothing_is_stored(match):
    from matches.models import Match
    from matches.services import record_result

    data = result_of(match).to_json()
    data["seats"][1]["faults"][0]["kind"] = "exploded"
    with pytest.raises(ValueError):
        record_result(match.pk, data)
    match = Match.objects.get(pk=match.pk)
    assert match.status != Match.Status.FINISHED and not match.result
    assert all(p.rank is None for p in match.participants.all())
