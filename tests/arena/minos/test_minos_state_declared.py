"""The Minos state is declared: every field is a typed slot of `MinosPosition`, and phases and decisions reach
their rules through explicit tables (issue 11)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from minos_helpers import random_playout

from arena.games import load, native
from arena.games.minos.position import MinosPosition
from arena.games.minos.state import MinosState


def _declared() -> type:
    """MinosPosition as its source declares it: the compiled class (mypyc) keeps neither annotations nor
    __slots__, so the declarations are read from the module's source, run as plain Python."""
    if "__annotations__" in vars(MinosPosition) and MinosPosition.__annotations__:
        return MinosPosition
    spec = importlib.util.spec_from_file_location("minos_position_source",
                                                  Path(native.GAMES_DIR, "minos", "position.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MinosPosition


def test_every_field_is_declared_typed_and_saved_or_transient():
    declared = _declared()
    # the declarations, as written (SAVED is the class's list of them, a ClassVar)
    hints = {name: hint for name, hint in declared.__annotations__.items() if name != "SAVED"}
    slots = set(declared.__slots__)
    assert slots == set(hints) and all(hints.values())
    assert set(MinosPosition.SAVED) | {"regions", "rng", "game", "events", "_legal_cache", "_dirty"} == slots
    st = load("minos", players=3).new_state(4)
    random_playout(st, random.Random(4), max_steps=300)
    assert set(st.to_json()) == set(MinosPosition.SAVED) | {"regions", "rng"}
    assert getattr(st, "__dict__", {}) == {}  # nothing lives outside the declared fields (compiled: no __dict__)


def test_every_phase_and_decision_has_its_table_entry():
    seen_phases, seen_decisions = set(), set()
    for players in (1, 2, 4):
        st = load("minos", players=players).new_state(players)
        rng = random.Random(players)
        while not st.is_terminal():
            seen_phases.add(st.phase)
            if not st.queue:
                seen_decisions.add(st.decision())
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        seen_phases.add(st.phase)
    assert seen_phases <= set(MinosState.AUTO_STEP)
    assert seen_decisions <= set(MinosState.LEGAL) == set(MinosState.DO)
    assert {"draft", "groups", "turn", "palace", "keep", "setup_palace"} <= seen_decisions


def test_from_json_rejects_a_field_that_does_not_exist():
    game = load("minos", players=2)
    data = game.new_state(1).to_json()
    assert game.state_from_json(data).to_json() == data
    with pytest.raises(ValueError, match="not fields of a Minos state: evil"):
        game.state_from_json({**data, "evil": 1})
