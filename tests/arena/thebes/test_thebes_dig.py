"""Excavation: permits, knowledge, time wheel, shovels, draws, first-dig bonus, one-use cards."""

from thebes_positions import Position, texts

from arena.games.thebes.data import DATA, WHEEL


def digs(state, site):
    return [t for t in texts(state) if t.startswith(f"dig {site} ")]


def test_a_dig_uses_the_permit_until_the_players_next_year():
    state = Position(4).give(0, "R36").only(0, "greece", 1902, 1).state()
    assert digs(state, "greece")
    state.apply_text("dig greece 8")
    assert state.observation(0)["seats"][0]["permits_used"] == ["greece"]
    assert state.current_player() == 0 and digs(state, "greece") == []
    assert "permit is used" in state.illegal_reason(state.game.parse_action("dig greece 8"))


def test_passing_week_52_makes_the_permits_valid_again():
    """NOTES decision 6."""
    state = Position(4).give(0, "R36").display("R40").permits_used(0, "greece", "crete") \
        .only(0, "rome", 1902, 51).state()
    events = state.apply_text("take R40")     # rome, 2 weeks: week 51 -> week 1 of 1903
    assert (state.observation(0)["seats"][0]["year"], state.observation(0)["seats"][0]["week"]) == (1903, 1)
    assert state.permits_used[0] == 0
    assert {"type": "year_passed", "seat": 0, "year": 1903} in events


def test_reaching_week_52_exactly_is_still_the_same_year():
    state = Position(4).give(0, "R36").display("R40").permits_used(0, "greece") \
        .only(0, "rome", 1902, 50).state()
    state.apply_text("take R40")
    assert state.observation(0)["seats"][0]["week"] == 52
    assert state.observation(0)["seats"][0]["permits_used"] == ["greece"]


def test_a_dig_crossing_the_year_end_uses_the_permit_of_the_new_year():
    """Decision D18 (RULES.md): the marker moves first (new year, permits valid), the permit turns after."""
    state = Position(4).give(0, "R36").permits_used(0, "crete").only(0, "greece", 1902, 50).state()
    state.apply_text("dig greece 8")
    assert state.permits_used[0] == 0b00001  # crete valid again, greece used in 1903


def test_general_knowledge_alone_allows_no_dig():
    state = Position(4).give(0, "R32", "R33").only(0, "greece").state()
    assert not any(t.startswith("dig ") for t in texts(state))


def test_assistants_rumors_and_books_are_specialized_knowledge():
    """NOTES decision 4: two assistants open every site; a rumors card opens its own site."""
    state = Position(4).give(0, "R16", "R17").only(0, "warsaw").state()
    for site in DATA["sites"]:
        assert digs(state, site)
    state = Position(4).give(0, "R83").only(0, "warsaw").state()
    assert {t.split()[1] for t in texts(state) if t.startswith("dig ")} == {"egypt"}
    assert all(t.endswith("rumors") for t in digs(state, "egypt"))


def test_general_knowledge_counts_at_most_as_much_as_the_specialized_side():
    state = Position(4).give(0, "R36", "R32", "R33").only(0, "greece").state()  # 1 greece book, 4 general
    assert state.dig_knowledge(0, 0) == 2
    # row 2 draws its first token at 6 weeks
    assert "dig greece 6" in digs(state, "greece") and "dig greece 5" not in digs(state, "greece")


def test_knowledge_is_capped_at_12():
    state = Position(4).give(0, "R43", "R44", "R40", "R41", "R42", "R36", "R32", "R33", "R34", "R35") \
        .only(0, "greece").state()
    assert state.specialized_knowledge(0, 0) == 3 + 3 + 2 + 2 + 2 + 1
    assert state.dig_knowledge(0, 0) == 12
    assert state.dig_draws(0, 0, 1) == WHEEL[12][1] == 3


def test_time_wheel_row_9_is_the_chosen_row():
    """NOTES decision 1: rows["9"], not the alternative kept under "unresolved"."""
    assert list(WHEEL[9][1:]) == DATA["time_wheel"]["rows"]["9"]
    assert WHEEL[9][5] == 6 != DATA["time_wheel"]["unresolved"]["alternative"][4]
    # 9 knowledge: 3 + 3 + 2 greece books and 1 general
    state = Position(4).give(0, "R43", "R44", "R40", "R28").only(0, "greece").state()
    assert state.dig_knowledge(0, 0) == 9
    events = state.apply_text("dig greece 5")
    assert next(e for e in events if e["type"] == "tokens_drawn")["drawn"] == 6


def test_the_chosen_weeks_must_draw_at_least_one_token():
    state = Position(4).give(0, "R36").only(0, "greece").state()  # knowledge 1: row 1 starts at 8 weeks
    assert digs(state, "greece") == [f"dig greece {w}" for w in range(8, 13)]
    assert "draws no token" in state.illegal_reason(state.game.parse_action("dig greece 7"))


def test_shovels_add_tokens_two_give_one_three_give_two_a_fourth_nothing():
    """NOTES decision 2."""
    for shovels, extra in ((2, 1), (3, 2), (4, 2)):
        cards = ["R22", "R23", "R24", "R25"][:shovels]
        state = Position(4).give(0, "R36", *cards).only(0, "greece").state()
        assert state.dig_draws(0, 0, 8) == WHEEL[1][8] + extra
        assert not any(t.endswith("shovel") for t in texts(state))  # nothing to spend: they are kept
        state.apply_text("dig greece 8")
        assert state.shovels[0] == shovels


def test_assistants_two_give_one_three_give_two_a_fourth_nothing():
    for assistants, bonus in ((2, 1), (3, 2), (4, 2)):
        cards = ["R16", "R17", "R18", "R19"][:assistants]
        state = Position(4).give(0, "R36", *cards).only(0, "greece").state()
        assert state.specialized_knowledge(0, 0) == 1 + bonus
        state.apply_text(digs(state, "greece")[0])
        assert state.assistants[0] == assistants


def test_a_single_shovel_or_assistant_may_be_spent_for_one_dig_and_is_discarded():
    """NOTES decision 14."""
    state = Position(4).give(0, "R36", "R16", "R22").only(0, "greece").state()
    options = digs(state, "greece")
    assert {"dig greece 8", "dig greece 8 assistant", "dig greece 8 shovel",
            "dig greece 8 assistant shovel"} <= set(options)
    # the single assistant makes knowledge 2 (row 2 draws from 6 weeks)
    assert "dig greece 6 assistant" in options and "dig greece 6" not in options
    assert state.dig_draws(0, 0, 8, flags=4 | 8) == WHEEL[2][8] + 1
    events = state.apply_text("dig greece 8 assistant shovel")
    assert {e["card"] for e in events if e["type"] == "card_spent"} == {"R16", "R22"}
    assert state.assistants[0] == 0 and state.shovels[0] == 0
    assert {"R16", "R22"} <= set(state.to_json()["discard"])


def test_tokens_are_drawn_without_replacement_and_dirt_goes_back():
    for seed in range(25):
        p = Position(4, seed=seed).give(0, "R43", "R44", "R40", "R41", "R42", "R32", "R33", "R34", "R35")
        p.strip_bag("greece", "artifact5", "artifact6", "general").only(0, "greece")
        state = p.state()
        events = state.apply_text("dig greece 12")    # knowledge 12, 12 weeks: 10 of the 19 tokens
        drawn = next(e for e in events if e["type"] == "tokens_drawn")
        assert drawn["drawn"] == 10 and len(drawn["found"]) + drawn["dirt"] == 10
        assert len(set(drawn["found"])) == len(drawn["found"])  # each token at most once
        bag = state.observation(0)["bags"][0]
        assert bag["dirt"] == 16 and bag["size"] == 19 - len(drawn["found"])


def test_the_first_player_to_dig_a_site_takes_its_bonus_artifact():
    """NOTES decision 15."""
    p = Position(4).give(0, "R36").give(1, "R37").only(0, "greece", 1902, 1).at(1, "greece", 1902, 2)
    state = p.state()
    events = state.apply_text("dig greece 8")
    assert {"type": "first_dig_bonus", "seat": 0, "site": "greece", "token": "artifact1"} in events
    assert not state.observation(0)["bags"][0]["first_dig_bonus"]
    assert state.current_player() == 1
    events = state.apply_text("dig greece 8")
    assert not any(e["type"] == "first_dig_bonus" for e in events)


def test_found_knowledge_tokens_add_knowledge_for_later_digs():
    state = Position(4).token(0, "greece", "specialized-crete").token(0, "egypt", "general") \
        .only(0, "crete").state()
    assert state.books[0 * 5 + 1] == 1 and state.general_knowledge[0] == 1
    assert state.dig_knowledge(0, 1) == 2


def test_a_rumors_card_gives_two_for_one_dig_and_is_discarded():
    """NOTES decision 13 (the majority part is in the scoring tests)."""
    state = Position(4).give(0, "R36", "R81").only(0, "greece").state()
    assert state.dig_knowledge(0, 0, rumors=True) == 3
    assert "dig greece 3 rumors" in digs(state, "greece")
    state.apply_text("dig greece 3 rumors")
    assert state.rumors[0] == 0 and "R81" in state.to_json()["discard"]


def test_special_permission_allows_a_second_dig_in_the_year_and_is_discarded():
    """NOTES decision 17."""
    state = Position(4).give(0, "R36", "R01").only(0, "greece").state()
    assert not any(t.endswith("permission") for t in texts(state))  # permit valid: nothing to spend
    assert "still valid" in state.illegal_reason(state.game.parse_action("dig greece 8 permission"))
    state.apply_text("dig greece 8")
    assert digs(state, "greece") == [f"dig greece {w} permission" for w in range(8, 13)]
    events = state.apply_text("dig greece 8 permission")
    assert {"type": "card_spent", "seat": 0, "card": "R01"} in events
    assert state.special_permissions[0] == 0 and state.permits_used[0] == 1 and digs(state, "greece") == []


def test_the_permit_is_checked_when_the_turn_starts_even_if_the_trip_passes_week_52():
    """Seed 000 lists the requirements first: "Se cumprir os requisitos: Mova seu arqueólogo para a área" (if
    you meet them, move to the site). A trip that passes week 52 renews the permits only on the way: the dig
    needs a special permission, which is spent, and the permit is then used for the new year (D18)."""
    p = Position(4).give(0, "R36").permits_used(0, "greece").only(0, "warsaw", 1902, 52)
    state = p.state()
    assert digs(state, "greece") == []
    assert "permit is used" in state.illegal_reason(state.game.parse_action("dig greece 8"))
    state = p.give(0, "R01").state()
    assert "dig greece 8 permission" in digs(state, "greece")
    state.apply_text("dig greece 8 permission")
    assert state.observation(0)["seats"][0]["year"] == 1903
    assert state.permits_used[0] == 0b00001 and state.special_permissions[0] == 0
