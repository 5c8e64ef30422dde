"""Property tests over random games for 1-4 players: termination, no negative quantities, conservation of dice
and pieces, scores equal the sum of their parts, JSON round trip mid-game continues identically."""

from __future__ import annotations

import json
import os
import random

import pytest
from minos_helpers import new

from arena.games.minos import data as D
from arena.games.minos.vases import checkpoint

# games per player count (1600 in all by default; MINOS_PROPERTY_GAMES=5000 for a deeper run)
GAMES_PER_COUNT = int(os.environ.get("MINOS_PROPERTY_GAMES", "400"))


def check_invariants(st) -> None:
    nd = len(st.dice)
    assert nd == D.DATA["dice"]["in_play_by_player_count"][str(st.n)]
    placed = [d for r in st.rows.values() for d in r]
    assert len(placed) == len(set(placed)) == len(st.owner)
    assert set(st.retrieved) <= set(placed)
    assert all(st.rows[r].__len__() <= len(D.BOARD[st.board_n][r]) for r in st.rows)
    for s, p in enumerate(st.players):
        for k in ("coins", "weapons", "vp", "supply", "reserve", "income", "level"):
            assert p[k] >= 0, (k, p[k])
        assert all(v >= 0 for v in p["temp"].values())
        assert all(v >= 0 for v in p["perm"].values())
        on_map = sum(reg["w"][s] for reg in st.regions.values())
        assert p["supply"] + p["reserve"] + on_map == 10
        assert p["board"]["city"] + sum(reg["city"] == s for reg in st.regions.values()) == 3
        assert p["board"]["tower"] + sum(reg["city"] == s and reg["tower"] for reg in st.regions.values()) == 3
        assert p["board"]["ship"] + sum(1 for v in p["ships"].values() if v) == 3
        assert p["board"]["farm"] + sum(reg["farms"].count(s) for reg in st.regions.values()) == 4
        assert all(0 <= v <= 10 for v in p["tracks"].values())
        assert p["vp"] == sum(p["parts"].values())
    if st.solo:
        b = st.bot
        assert b["supply"] + sum(reg["w"][1] for reg in st.regions.values()) == 10
        assert b["board"]["city"] + sum(reg["city"] == 1 for reg in st.regions.values()) == 3
        assert b["board"]["farm"] + sum(reg["farms"].count(1) for reg in st.regions.values()) == 4
        assert b["vp"] == sum(b["parts"].values()) and b["vp"] >= 0
        assert all(1 <= v <= 6 for v in b["ships"].values())
    # cards: every instance is in exactly one place
    places = list(st.decks["I"]) + st.decks["II"] + st.discard["I"] + st.discard["II"] + [c for c in st.offer if c]
    for p in st.players:
        places += p["hand"] + p["play"] + p["palace"] + p["drawn"]
    if st.solo:
        places += st.bot["down"] + st.bot["up"]
    assert sorted(places) == sorted(D.DECK_INSTANCES["I"] + D.DECK_INSTANCES["II"])
    # goods tiles: stacks + pile + owned = 54
    owned = sum(sum(p["perm"].values()) for p in st.players)
    assert sum(st.stacks.values()) + len(st.pile) + owned == 54
    assert len(st.trade_tiles) + sum(len(p["trade"]) for p in st.players) == 15


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_keep_every_invariant(players):
    rng = random.Random(players)
    for g in range(GAMES_PER_COUNT):
        st = new(players, seed=10_000 * players + g)
        rounds_seen = set()
        steps = 0
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            assert st.current_player() in range(players)
            st.apply(legal[rng.randrange(len(legal))])
            rounds_seen.add(st.round)
            steps += 1
            if steps % 37 == 0 or st.is_terminal():
                check_invariants(st)
        assert rounds_seen <= {1, 2, 3, 4} and st.round == 4
        assert st.legal_actions() == []
        assert st.scores() == [sum(v for k, v in b.items() if k != "total") for b in st.score_breakdown()]
        if players > 1:
            assert min(st.ranking()) == 1
        else:
            assert st.ranking() == [1 if st.players[0]["vp"] > st.bot["vp"] else 2]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_json_round_trip_continues_identically(players):
    rng = random.Random(99)
    for g in range(12):
        st = new(players, seed=500 + g)
        cut = rng.randrange(40, 300 * players)
        k = 0
        while not st.is_terminal() and k < cut:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            k += 1
        data = json.loads(json.dumps(st.to_json()))
        copy = st.game.state_from_json(data)
        clone = st.clone()
        assert copy.to_json() == st.to_json() == clone.to_json()
        assert copy.observation(None) == st.observation(None)
        seq = random.Random(g)
        while not st.is_terminal():
            legal = st.legal_actions()
            i = seq.randrange(len(legal))
            assert [str(a) for a in copy.legal_actions()] == [str(a) for a in legal]
            assert [str(a) for a in clone.legal_actions()] == [str(a) for a in legal]
            e1 = st.apply(legal[i])
            assert copy.apply(legal[i]) == e1 == clone.apply(legal[i])
        assert copy.scores() == st.scores() == clone.scores()


def test_same_seed_and_actions_give_the_same_game():
    def run():
        st = new(4, seed=77)
        rng = random.Random(5)
        log = []
        while not st.is_terminal():
            legal = st.legal_actions()
            a = legal[rng.randrange(len(legal))]
            log.append((str(a), json.dumps(st.apply(a), sort_keys=True)))
        return log, st.scores()
    assert run() == run()


@pytest.mark.parametrize("players", [2, 4])
def test_skipped_vase_checks_would_have_found_nothing(players):
    """The action phase skips a vase check when nothing a vase counts changed: an explicit check at every one of
    those points must award nothing new."""
    rng = random.Random(7)
    for g in range(8):
        st = new(players, seed=900 + g)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            if st.phase == "actions" and not st.queue:
                before = json.dumps(st.vases)
                checkpoint(st)
                assert json.dumps(st.vases) == before
