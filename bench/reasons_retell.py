"""How long re-telling a stored reason takes (arena.reasons.retell: a match page tells each fault and reason this
way): a known fault message, a message that is no known phrase (every pattern tried), and rendering a stored code.

    .venv/bin/python bench/reasons_retell.py
"""

from __future__ import annotations

import timeit

from arena import reasons
from arena.reasons import Reason

KNOWN = "answered 'dig:atlantis', which is not the text of a legal action (legal are e.g. 'pass', 'dig:greece')"
UNKNOWN = "bot.toml: runtime 'cobol' is not supported"
CODE = Reason("check.game_not_listed", {"game": "thebes"})


def main() -> None:
    for name, call in (("retell a known fault (zh-hans)", lambda: reasons.retell(KNOWN, "zh-hans")),
                       ("retell an unknown text (zh-hans)", lambda: reasons.retell(UNKNOWN, "zh-hans")),
                       ("render a stored code (zh-hans)", lambda: reasons.render(CODE, "zh-hans"))):
        n = 2000
        best = min(timeit.repeat(call, number=n, repeat=5)) / n
        print(f"{name}: {best * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
