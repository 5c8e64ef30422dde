"""How long re-telling a stored reason takes (arena.reasons.retell: a match page tells each fault and reason this
way): a known fault message, a message that is no known phrase (every pattern tried), and rendering a stored code.

    .venv/bin/python bench/reasons_retell.py [--before REV]

With `--before REV` the same calls run, alternating, against arena/reasons.py as it was at git revision REV (the
rest of this checkout's `arena`): the before/after figures of one run, best of 7 rounds each.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from arena import reasons  # noqa: E402

KNOWN = "answered 'dig:atlantis', which is not the text of a legal action (legal are e.g. 'pass', 'dig:greece')"
UNKNOWN = "bot.toml: runtime 'cobol' is not supported"


def module_at(rev: str) -> ModuleType:
    """arena/reasons.py as it was at `rev`, loaded beside this checkout's as `arena._reasons_before`."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:arena/reasons.py"], check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="reasons-before-")) / "reasons.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("arena._reasons_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", help="a git revision whose arena/reasons.py is measured beside this one")
    args = parser.parse_args()
    versions = {"before": module_at(args.before)} if args.before else {}
    versions["now"] = reasons
    cases = (("retell a known fault (zh-hans)", lambda m: lambda: m.retell(KNOWN, "zh-hans")),
             ("retell an unknown text (zh-hans)", lambda m: lambda: m.retell(UNKNOWN, "zh-hans")),
             ("render a stored code (zh-hans)",
              lambda m: lambda: m.render(m.Reason("check.game_not_listed", {"game": "thebes"}), "zh-hans")))
    n = 2000
    for name, call in cases:
        best = dict.fromkeys(versions, float("inf"))
        for _round in range(7):  # alternating: the host's swings fall on both
            for label, module in versions.items():
                best[label] = min(best[label], timeit.timeit(call(module), number=n) / n)
        told = ", ".join(f"{label} {t * 1e6:.1f} µs" for label, t in best.items())
        ratio = f" (× {best['before'] / best['now']:.2f} faster)" if "before" in best else ""
        print(f"{name}: {told}{ratio}")


if __name__ == "__main__":
    main()
