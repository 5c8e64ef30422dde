"""Regenerate every artefact made from `proto/arena/v1/*.proto`: `python -m arena.protocol_gen`.

Outputs, all committed (a test regenerates into a temporary folder and fails when any differs):
- `arena/v1/<name>_pb2.py`, `_pb2.pyi`, `_pb2_grpc.py`: the Python code (`from arena.v1 import arena_pb2`);
- `bots/python/sdk/arena/v1/`: the same files, shipped inside the Python bot SDK (`arena_bot`) so that a bot's
  runtime needs no copy of the referee;
- `bots/node/sdk/proto/arena/v1/*.proto`: the protocol files the Node SDK loads with @grpc/proto-loader;
- `bots/cpp/sdk/proto/arena/v1/*.proto`: the protocol files the C++ kit compiles at build time (protoc's C++
  generator cannot take a field `X_size` beside a repeated field `X`, whose generated `X_size()` accessor it
  would clash with: such a field is renamed `X_count` in this copy, same number, so the wire is unchanged);
- `bots/cpp/<bot>/sdk/`: the C++ kit (the hand-written `bots/cpp/sdk/arena_bot.hpp` and `arena.mk`, and the
  protocol files above) copied into each C++ bot of `CPP_BOTS`, because a bot package must hold everything its
  build needs: only its own folder is visible in the build's sandbox.

grpcio-tools is pinned in pyproject.toml because its protoc writes its own version into the generated code.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PROTO_DIR = PROTO_ROOT / "arena" / "v1"

PY_PACKAGE = Path("arena/v1")
SDK_PY_PACKAGE = Path("bots/python/sdk/arena/v1")
SDK_NODE_PROTOS = Path("bots/node/sdk/proto/arena/v1")
SDK_CPP = Path("bots/cpp/sdk")
SDK_CPP_PROTOS = SDK_CPP / "proto/arena/v1"
SDK_CPP_FILES = ("arena_bot.hpp", "arena.mk")  # hand-written, in bots/cpp/sdk
CPP_BOTS = (Path("bots/cpp/random"),)

INIT = '''"""Generated gRPC/protobuf code of the Arena bot protocol (arena.v1), made by `python -m arena.protocol_gen`
from proto/arena/v1/*.proto. Do not edit: edit the .proto files and regenerate."""
'''


def proto_files() -> list[Path]:
    return sorted(PROTO_DIR.glob("*.proto"))


def _protoc(out: Path) -> None:
    from grpc_tools import protoc  # dev dependency: only regeneration needs it

    well_known = str(resources.files("grpc_tools") / "_proto")
    args = ["protoc", f"-I{PROTO_ROOT}", f"-I{well_known}", f"--python_out={out}", f"--pyi_out={out}",
            f"--grpc_python_out={out}"]
    args += [str(p.relative_to(PROTO_ROOT)) for p in proto_files()]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on proto/arena/v1 (its message is above)")


def generate(root: Path) -> list[Path]:
    """Write every generated file under `root` (the project root, or a scratch folder to compare with it).
    Returns the written paths relative to `root`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        _protoc(out)
        generated = sorted((out / PY_PACKAGE).iterdir())
        written: list[Path] = []
        for package in (PY_PACKAGE, SDK_PY_PACKAGE):
            target = root / package
            if target.exists():
                shutil.rmtree(target)
            target.mkdir(parents=True)
            (target / "__init__.py").write_text(INIT)
            written.append(package / "__init__.py")
            for f in generated:
                shutil.copyfile(f, target / f.name)
                written.append(package / f.name)
    target = root / SDK_NODE_PROTOS
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for p in proto_files():
        shutil.copyfile(p, target / p.name)
        written.append(SDK_NODE_PROTOS / p.name)
    return written + _write_cpp(root)


def _write_cpp(root: Path) -> list[Path]:
    written: list[Path] = []
    targets = [(SDK_CPP_PROTOS, False)] + [(bot / "sdk", True) for bot in CPP_BOTS]
    for folder, with_sdk in targets:
        protos = folder / "proto/arena/v1" if with_sdk else folder
        target = root / protos
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for p in proto_files():
            shutil.copyfile(p, target / p.name)
            written.append(protos / p.name)
        if with_sdk:
            for name in SDK_CPP_FILES:
                shutil.copyfile(ROOT / SDK_CPP / name, root / folder / name)
                written.append(folder / name)
    return written


def stale_files(root: Path = ROOT) -> list[str]:
    """The generated files under `root` that differ from a fresh generation (missing, changed or extra)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh_root = Path(tmp)
        fresh = set(generate(fresh_root))
        problems = []
        for rel in sorted(fresh):
            have = root / rel
            if not have.exists():
                problems.append(f"{rel}: missing")
            elif have.read_bytes() != (fresh_root / rel).read_bytes():
                problems.append(f"{rel}: differs")
        cpp = [SDK_CPP_PROTOS] + [d for bot in CPP_BOTS for d in (bot / "sdk", bot / "sdk/proto/arena/v1")]
        for package in (PY_PACKAGE, SDK_PY_PACKAGE, SDK_NODE_PROTOS, *cpp):
            for have in sorted((root / package).glob("*")) if (root / package).exists() else []:
                rel = have.relative_to(root)
                if have.is_file() and rel not in fresh:
                    problems.append(f"{rel}: not generated from any .proto (left over?)")
        return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.protocol_gen", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale generated files (exit 1)")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale_files()
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            print("generated protocol code is stale: run `python -m arena.protocol_gen`", file=sys.stderr)
        return 1 if problems else 0
    for rel in generate(ROOT):
        print(rel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
