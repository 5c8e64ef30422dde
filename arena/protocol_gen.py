"""Regenerate the Python code of the protocol from `proto/arena/v1/*.proto`: `python -m arena.protocol_gen`.

Output, committed: `arena/v1/<name>_pb2.py`, `_pb2.pyi`, `_pb2_grpc.py` (`from arena.v1 import arena_pb2`). A test
regenerates into a temporary folder and fails when any file differs (`--check` does the same from a shell).

The tree holds one copy of each source: the kits take what they need when a runtime is built (`arena runtimes
install`, arena.sandbox.runtimes): the Python SDK gets `arena/v1`, the Node SDK and the C++ kit get `proto/`.

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
        target = root / PY_PACKAGE
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        (target / "__init__.py").write_text(INIT)
        written = [PY_PACKAGE / "__init__.py"]
        for f in sorted((out / PY_PACKAGE).iterdir()):
            shutil.copyfile(f, target / f.name)
            written.append(PY_PACKAGE / f.name)
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
        package = root / PY_PACKAGE
        for have in sorted(package.glob("*")) if package.exists() else []:
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
