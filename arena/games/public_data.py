"""Each game's data as one published JSON document with its JSON Schema, for ports of the rules to other languages.

`arena/games/<game>/public-data.json` holds every table the engine plays by (`data`: the game's `data.json`, the
very file the engine loads: Thebes' map, routes and travel costs, time wheel, bags and cards; Minos' action
board, tracks, cards, map, tiles and Rhadamanthus' deck) and the tables the engine derives from it that a port
would otherwise have to re-derive exactly (`derived`: e.g. Thebes' travel weeks between every two places, Minos'
card instances in deck order). `public-data.schema.json` beside it is a JSON Schema (draft 2020-12) of that
document, inferred from it: every key, type and nesting, so a port can validate its own loader against it.

    python -m arena.games.public_data --output DIR  # write DIR/<game>/public-data.json and its schema
    python -m arena.games.public_data --in-place    # (re)write the published files in the checkout (maintainers)
    python -m arena.games.public_data --check       # fail when a published file is not what the engine's data gives

Without --output or --in-place it writes nothing (and says so): it never writes into the checkout unasked.

A test (tests/arena/test_public_data.py) runs the check, so the published files never lag the engine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from arena import games

FORMAT = "arena-game-data"
VERSION = 1
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DATA_FILE = "public-data.json"
SCHEMA_FILE = "public-data.schema.json"

_TOP_DESCRIPTIONS = {
    "format": f'Always "{FORMAT}".',
    "version": "The document format's version (this schema's).",
    "game": "The game's registry name.",
    "engine_version": "The engine version these tables belong to: a rule change bumps it.",
    "players": "The smallest and largest number of seats.",
    "data": "The game's data.json, exactly as the engine loads it (its `meta` says where each number comes from).",
    "derived": "Tables the engine computes from `data` at import, published so a port need not re-derive them.",
}


def package_dir(name: str) -> Path:
    return Path(__file__).resolve().parent / name


def document(name: str) -> dict[str, Any]:
    """The published document of game `name`."""
    cls = games.game_class(name)
    data = json.loads((package_dir(name) / "data.json").read_text())
    derived_module = importlib.import_module(f"arena.games.{name}.public_data")
    return {
        "format": FORMAT, "version": VERSION, "game": name, "engine_version": cls.engine_version,
        "players": [cls.min_players, cls.max_players], "data": data, "derived": derived_module.derived(),
    }


def _type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"


def infer(value: Any) -> dict[str, Any]:
    """The narrowest schema of `value` in this module's vocabulary: objects with all their keys required and
    no others, arrays whose items follow the merged schema of every item, scalars by type."""
    kind = _type(value)
    if kind == "object":
        return {"type": "object", "properties": {k: infer(v) for k, v in value.items()},
                "required": list(value), "additionalProperties": False}
    if kind == "array":
        schema: dict[str, Any] = {"type": "array"}
        if value:
            items = infer(value[0])
            for item in value[1:]:
                items = merge(items, infer(item))
            schema["items"] = items
        return schema
    return {"type": kind}


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """A schema that both `a` and `b` values satisfy (keys present in only some objects become optional)."""
    if a == b:
        return a
    if "anyOf" in a or "anyOf" in b:
        options = list(a.get("anyOf", [a]))
        for option in b.get("anyOf", [b]):
            options = _add_option(options, option)
        return options[0] if len(options) == 1 else {"anyOf": options}
    ta, tb = a.get("type"), b.get("type")
    if ta == tb == "object":
        props = dict(a["properties"])
        for k, v in b["properties"].items():
            props[k] = merge(props[k], v) if k in props else v
        required = [k for k in a["required"] if k in b["required"]]
        return {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if ta == tb == "array":
        if "items" not in a or "items" not in b:
            return a if "items" in a else b
        return {"type": "array", "items": merge(a["items"], b["items"])}
    if {ta, tb} == {"integer", "number"}:
        return {"type": "number"}
    return {"anyOf": _add_option([a], b)}


def _add_option(options: list[dict[str, Any]], option: dict[str, Any]) -> list[dict[str, Any]]:
    for i, existing in enumerate(options):
        if existing.get("type") == option.get("type") or {existing.get("type"), option.get("type")} == {
                "integer", "number"}:
            options[i] = merge(existing, option)
            return options
    return [*options, option]


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of game `name`'s published document."""
    doc = document(name)
    out = infer(doc)
    out["properties"]["format"] = {"const": FORMAT}
    out["properties"]["version"] = {"const": VERSION}
    out["properties"]["game"] = {"const": name}
    for key, text in _TOP_DESCRIPTIONS.items():
        out["properties"][key]["description"] = text
    derived_module = importlib.import_module(f"arena.games.{name}.public_data")
    for key, text in derived_module.DESCRIPTIONS.items():
        out["properties"]["derived"]["properties"][key]["description"] = text
    return {"$schema": SCHEMA_DIALECT, "$id": f"https://arena.invalid/games/{name}/{SCHEMA_FILE}",
            "title": f"{name}: the game's data, as published by Arena", **out}


def _text(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def files(name: str, folder: Path | None = None) -> dict[Path, str]:
    """The published files of game `name` (in `folder`, by default the game's package) and the text of each."""
    folder = package_dir(name) if folder is None else folder
    return {folder / DATA_FILE: _text(document(name)), folder / SCHEMA_FILE: _text(schema(name))}


def stale(name: str) -> list[Path]:
    """The published files of `name` that are missing or differ from what the engine's data gives."""
    return [path for path, text in files(name).items()
            if not path.is_file() or path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--output", metavar="DIR", type=Path, help="write DIR/<game>/ for every game")
    where.add_argument("--in-place", action="store_true", help="rewrite the published files in the checkout")
    where.add_argument("--check", action="store_true", help="fail when a published file is stale")
    args = parser.parse_args(argv)
    if not (args.output or args.in_place or args.check):
        print("say where to write: --output DIR (or --in-place to rewrite the checkout's published files, "
              "--check to compare them)", file=sys.stderr)
        return 2
    bad = []
    for name in games.names():
        if args.check:
            bad += stale(name)
            continue
        folder = args.output / name if args.output else None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        for path, text in files(name, folder).items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if bad:
        print("stale (run `python -m arena.games.public_data --in-place`): " + ", ".join(map(str, bad)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
