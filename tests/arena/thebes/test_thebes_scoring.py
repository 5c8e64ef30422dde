"""Final scoring: artifacts, exhibitions, congress table, specialized-knowledge majority."""

from thebes_positions import Position

from arena.games.thebes.data import congress_points

CONGRESS = ["R07", "R08", "R09", "R10", "R11", "R12", "R13", "R14", "R15"]


def test_congress_table_up_to_28_points_for_7_cards():
    assert [congress_points(n) for n in range(10)] == [0, 1, 3, 6, 10, 15, 21, 28, 28, 28]
    state = Position(4).give(0, *CONGRESS[:8]).give(1, CONGRESS[8]).state()
    parts = state.score_breakdown()
    assert parts[0]["congress"] == 28 and parts[1]["congress"] == 1


def test_majority_sole_leader_5_each_tied_leader_3_nobody_when_the_most_is_zero():
    """NOTES decision 5: a site where nobody holds a book scores nobody."""
    p = Position(4).give(0, "R43").give(1, "R40").give(2, "R45").give(3, "R46")  # greece 3 vs 2; crete 1 = 1
    parts = p.state().score_breakdown()
    assert [x["majority"] for x in parts] == [5, 0, 3, 3]


def test_majority_counts_books_on_cards_and_tokens_only():
    """NOTES decision 13: rumors, assistants and general knowledge do not count."""
    p = Position(4).give(0, "R81", "R16", "R17", "R18", "R32").token(1, "crete", "specialized-greece")
    parts = p.state().score_breakdown()
    assert [x["majority"] for x in parts] == [0, 5, 0, 0]


def test_score_is_artifacts_exhibitions_congress_and_majority():
    p = Position(4).token(0, "egypt", "artifact6").token(0, "egypt", "artifact4").token(0, "egypt", "general")
    p.give(0, "X01", "X06", "R07", "R08", "R58")
    parts = p.state().score_breakdown()[0]
    assert parts == {"artifacts": 10, "exhibitions": 4 + 5, "congress": 3, "majority": 5,
                     "total": 10 + 9 + 3 + 5}
    assert p.state().scores()[0] == parts["total"]


def test_ranking_shares_places_on_equal_scores():
    p = Position(3).give(0, "R07").give(1, "R08")
    assert p.state().ranking() == [1, 1, 3]
