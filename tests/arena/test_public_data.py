"""The published game data (arena/games/<game>/public-data.json and its JSON Schema): current with the engine,
valid against its schema, and the schema strict enough that a port's mistake fails it."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from arena import games
from arena.games import public_data
from arena.games.minos import data as MD
from arena.games.thebes import data as TD

GAMES = games.names()


def load(name: str) -> tuple[dict, dict]:
    folder = public_data.package_dir(name)
    return (json.loads((folder / public_data.DATA_FILE).read_text()),
            json.loads((folder / public_data.SCHEMA_FILE).read_text()))


@pytest.mark.parametrize("name", GAMES)
def test_published_files_are_current(name):
    assert public_data.stale(name) == [], "run `python -m arena.games.public_data --in-place`"


def test_check_command_fails_on_a_stale_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(public_data, "package_dir", lambda name: tmp_path / name)
    for name in GAMES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "data.json").write_text((public_data.Path(public_data.__file__).parent / name
                                                    / "data.json").read_text())
    assert public_data.main(["--in-place"]) == 0
    assert public_data.main(["--check"]) == 0
    (tmp_path / "thebes" / public_data.DATA_FILE).write_text("{}")
    assert public_data.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err


def test_writes_where_asked_and_never_into_the_checkout_unasked(tmp_path, capsys):
    before = {name: [p.stat().st_mtime_ns for p in public_data.files(name)] for name in GAMES}
    assert public_data.main([]) == 2
    assert "--output DIR" in capsys.readouterr().err
    assert public_data.main(["--output", str(tmp_path / "out")]) == 0
    for name in GAMES:
        for path, text in public_data.files(name).items():
            assert (tmp_path / "out" / name / path.name).read_text(encoding="utf-8") == text
        assert [p.stat().st_mtime_ns for p in public_data.files(name)] == before[name]


@pytest.mark.parametrize("name", GAMES)
def test_document_validates_and_the_schema_catches_mistakes(name):
    doc, schema = load(name)
    validator = jsonschema.Draft202012Validator(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator.validate(doc)
    assert doc["engine_version"] == games.game_class(name).engine_version
    for mutate in (lambda d: d.pop("derived"), lambda d: d.__setitem__("format", "other"),
                   lambda d: d["data"].__setitem__("unexpected", 1), lambda d: d.__setitem__("version", 2)):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert not validator.is_valid(bad)


def test_thebes_tables_are_the_engines():
    doc, _ = load("thebes")
    derived = doc["derived"]
    assert derived["card_order"] == list(TD.CARD_IDS)
    assert derived["travel_weeks"]["with_car"] == [list(r) for r in TD.TRIP[1]]
    assert derived["time_wheel"] == [list(r) for r in TD.WHEEL]
    assert doc["data"]["time_wheel"]["rows"]["12"] == list(TD.WHEEL[12][1:])


def test_minos_tables_are_the_engines():
    doc, _ = load("minos")
    assert doc["derived"]["deck_instances"] == MD.DECK_INSTANCES
    assert doc["data"]["cards"] == MD.DATA["cards"]
    game = games.load("minos", players=3)
    assert list(game.new_state(1).dice) == doc["derived"]["dice"]["3"]
