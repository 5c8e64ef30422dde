"""Exhibitions: artifacts per site (count, not value), travel + weeks, artifacts kept, points scored."""

from thebes_positions import Position, texts


def _ready(p):
    # X01: london, 3 weeks, small (4 points): 1 greece + 2 egypt artifacts
    return p.exhibitions("X01").token(0, "greece", "artifact6").token(0, "egypt", "artifact1") \
        .only(0, "warsaw")


def test_an_exhibition_needs_the_artifacts_per_site():
    state = _ready(Position(4)).state()
    assert "exhibit X01" not in texts(state)
    assert "lack the artifacts" in state.illegal_reason(state.game.parse_action("exhibit X01"))
    state = _ready(Position(4)).token(0, "egypt", "artifact2").state()
    assert "exhibit X01" in texts(state)


def test_knowledge_tokens_are_not_artifacts():
    state = _ready(Position(4)).token(0, "egypt", "general").token(0, "egypt", "specialized-mesopotamia").state()
    assert "exhibit X01" not in texts(state)


def test_an_exhibition_costs_trip_plus_weeks_scores_its_points_and_the_artifacts_are_kept():
    state = _ready(Position(4)).token(0, "egypt", "artifact2").state()
    t0 = state.time[0]
    before = state.score_breakdown()[0]
    events = state.apply_text("exhibit X01")
    assert state.time[0] - t0 == 2 + 3
    after = state.score_breakdown()[0]
    assert after["exhibitions"] == before["exhibitions"] + 4 and after["artifacts"] == before["artifacts"]
    assert len(state.tokens[0]) == 3
    obs = state.observation(0)
    assert obs["exhibitions"] == [] and [x["id"] for x in obs["seats"][0]["exhibitions"]] == ["X01"]
    assert {"type": "exhibition_done", "seat": 0, "card": "X01", "slot": "a", "points": 4} in events
