"""A runtime is rebuilt exactly when what it is built from changes: the Python runtime's stamp follows the Python
SDK and the generated arena/v1, the Node runtime's the Node SDK and proto/, the C++ build kit's the C++ kit and
proto/ (the kits hold no copies of the protocol: the runtimes are where they get it)."""

import shutil

import pytest

from arena.sandbox import runtimes

SOURCES = {"python": ("bots/python/sdk", "arena/v1"), "node": ("bots/node/sdk", "proto"),
           "cpp": ("bots/cpp/sdk", "proto")}
STAMPS = {"python": runtimes._python_stamp, "node": runtimes._node_stamp, "cpp": runtimes._cpp_stamp}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    for rel in {rel for pair in SOURCES.values() for rel in pair}:
        shutil.copytree(runtimes.PROJECT_ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(runtimes, "PROJECT_ROOT", tmp_path)
    return tmp_path


@pytest.mark.parametrize("source", sorted({rel for pair in SOURCES.values() for rel in pair}))
def test_a_stamp_changes_with_its_sources_only(tree, source):
    before = {kind: stamp() for kind, stamp in STAMPS.items()}
    edited = next(p for p in sorted((tree / source).rglob("*")) if p.is_file())
    edited.write_bytes(edited.read_bytes() + b"\n")
    after = {kind: stamp() for kind, stamp in STAMPS.items()}
    changed = {kind for kind in STAMPS if before[kind] != after[kind]}
    assert changed == {kind for kind, rels in SOURCES.items() if source in rels}
