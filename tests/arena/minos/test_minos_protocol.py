"""The MinosObservation and MinosAction messages mirror observations and actions exactly."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format
from minos_helpers import new

from arena.v1 import minos_pb2


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_observations_and_actions_parse_into_the_protocol_messages(players):
    for g in range(2):
        st = new(players, seed=300 + g)
        rng = random.Random(g)
        k = 0
        while True:
            if k % 29 == 0 or st.is_terminal():
                for seat in [*range(players), None]:
                    obs = st.observation(seat)
                    msg = json_format.ParseDict(obs, minos_pb2.MinosObservation(), ignore_unknown_fields=False)
                    assert msg.round == obs["round"] and len(msg.player_states) == players
            if st.is_terminal():
                break
            legal = st.legal_actions()
            for a in legal[:3]:
                msg = json_format.ParseDict(a.to_dict(), minos_pb2.MinosAction(), ignore_unknown_fields=False)
                assert msg.text == str(a)
            st.apply(legal[rng.randrange(len(legal))])
            k += 1
