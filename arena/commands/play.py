"""`arena play GAME --bot DIR --bot DIR ... [--players N] [--seed N] [--param KEY=VALUE] [--json] [--replay FILE]
[--no-sandbox] [--ask-forced] [--logs DIR]`: one match between bot packages, exactly as the platform runs it (sandboxed), with a
progress line on stderr and a result table (or one JSON object with --json). The replay goes to ./replays/ unless
--replay names a file. A decision with a single legal action is applied without asking the bot (the platform's
default); `--ask-forced` asks the bot anyway.
`--logs DIR` writes what each bot printed, by turn, with its annotations: one `seatN-<name>.log` per seat (N from 0, as in the result table
and `arena replay show --seat N`) and the
`match.logs.json.gz` the platform keeps (arena/botlogs.py); without it they are kept beside the replay.
A `binary` bot whose program is missing or older than its sources is built first (as `arena bot build`).
A match the machine could not play fairly (a bot not given its CPU time within the wall backstop, every seat
failing to start: arena.match.botclock) is reported as "void — host trouble" and exits 3."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from arena import botbuild, botlogs, games
from arena.botpkg import ManifestError, load_manifest
from arena.commands.selfplay import parse_params
from arena.match import BotSpec, MatchResult, TimeControl, run_match
from arena.match.referee import default_replay_path
from arena.sandbox import RuntimeMissing, SandboxUnavailable


def register(subparsers: argparse._SubParsersAction) -> None:
    defaults = TimeControl()
    p = subparsers.add_parser("play", help="play one match between bots (sandboxed)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help=f"the game: {', '.join(games.names())}")
    p.add_argument("--bot", action="append", required=True, metavar="DIR",
                   help="a bot folder with bot.toml, once per seat in seat order (e.g. bots/python/random)")
    p.add_argument("--players", type=int, help="number of seats (default: the number of --bot)")
    p.add_argument("--seed", type=int, help="the match seed (default: random); same seed + same bots = same game")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, once per option (the options are in the game's RULES.md)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--replay", metavar="FILE", help="write the replay here (default: ./replays/...)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the bots as plain processes: only for your own bots on your own machine")
    p.add_argument("--decision-ms", type=int, default=defaults.decision_ms, help="time per decision (ms)")
    p.add_argument("--bank-ms", type=int, default=defaults.bank_ms, help="time bank per match (ms)")
    p.add_argument("--startup-ms", type=int, default=defaults.startup_ms, help="time for a bot to start (ms)")
    p.add_argument("--max-faults", type=int, default=defaults.max_faults,
                   help="faults allowed before disqualification")
    p.add_argument("--logs", metavar="DIR",
                   help="write each bot's output by turn and its annotations here (seatN-<name>.log per seat, N from 0)")
    p.add_argument("--ask-forced", action="store_true",
                   help="ask the bot even for a decision with a single legal action (by default the referee "
                        "applies it without asking)")
    p.set_defaults(func=run)


class _Progress:
    """One line on stderr, rewritten at most 10 times a second (only when stderr is a terminal)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.last = 0.0
        self.t0 = time.monotonic()
        self.decisions = 0

    def __call__(self, decision: int, state: Any) -> None:
        self.decisions = decision + 1
        now = time.monotonic()
        if self.live and now - self.last >= 0.1:
            self.last = now
            self.stream.write(f"\r  decision {decision + 1}, {now - self.t0:.1f} s ")
            self.stream.flush()

    def done(self) -> None:
        if self.live:
            self.stream.write("\r" + " " * 40 + "\r")
        self.stream.write(f"played {self.decisions} decisions in {time.monotonic() - self.t0:.1f} s\n")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    players = args.players or len(args.bot)
    if players != len(args.bot):
        print(f"arena play: --players {players} needs {players} --bot options, got {len(args.bot)}",
              file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    tc = TimeControl(decision_ms=args.decision_ms, bank_ms=args.bank_ms, startup_ms=args.startup_ms,
                     max_faults=args.max_faults, auto_single_action=not args.ask_forced)
    try:
        params = {**parse_params(args.param), "players": players}
    except ValueError as exc:
        print(f"arena play: {exc}", file=sys.stderr)
        return 2
    replay_path = args.replay or str(default_replay_path(args.game, seed))
    progress = _Progress()
    print(f"{args.game}, {players} players, seed {seed}{' (no sandbox)' if args.no_sandbox else ''}",
          file=sys.stderr)
    try:
        for folder in dict.fromkeys(args.bot):
            _build_if_needed(folder, sandbox=not args.no_sandbox)
    except (botbuild.BuildError, SandboxUnavailable, RuntimeMissing) as exc:  # RuntimeMissing: the build kit
        print(f"arena play: {exc}", file=sys.stderr)
        return 2
    logs_path = Path(args.logs) / "match.logs.json.gz" if args.logs else botlogs.logs_path(replay_path)
    try:
        result = run_match(args.game, params, seed, [BotSpec(path=b) for b in args.bot],
                           time_control=tc, sandbox=not args.no_sandbox, replay_path=replay_path,
                           progress=progress, logs_path=logs_path)
    except (SandboxUnavailable, RuntimeMissing, ValueError) as exc:
        print(f"arena play: {exc}", file=sys.stderr)
        return 2
    progress.done()
    if args.logs:
        files = botlogs.write_text_files(args.logs, botlogs.load(logs_path))
        print(f"bot logs: {', '.join(str(f) for f in files)}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result_table(result))
    if result.void:  # the machine's doing, not a bot's: nothing to score (exit 3, distinct from a bad command)
        print(f"arena play: {result.void}", file=sys.stderr)
        return 3
    return 0


def _build_if_needed(folder: str, sandbox: bool) -> None:
    """Build a `binary` bot whose program is missing or older than its sources (arena.botbuild)."""
    try:
        manifest = load_manifest(folder)
    except ManifestError:
        return  # the match reports it for the seat
    reason = botbuild.build_needed(manifest)
    if reason:
        print(f"building {folder} ({reason}): {' '.join(manifest.build or ())}", file=sys.stderr)
        result = botbuild.build(folder, sandbox=sandbox)
        print(f"built {result.program} in {result.seconds:.1f} s", file=sys.stderr)


def result_table(result: MatchResult) -> str:
    """The result as a plain-text table in rank order, then every fault, then where the replay is."""
    if result.void:
        return "\n".join([result.void] + [f"seat {s.seat} ({s.name}) {f.kind}: {f.message}"
                                          for s in result.seats for f in s.faults])
    rows = [("rank", "seat", "bot", "score", "faults", "decisions", "forced", "ms/decision", "total ms")]
    for s in sorted(result.seats, key=lambda s: (s.rank, s.seat)):
        per = s.time_ms / s.decisions if s.decisions else 0.0
        rows.append((str(s.rank) + (" (DQ)" if s.disqualified else ""), str(s.seat), s.name, f"{s.score:g}",
                     str(len(s.faults)), str(s.decisions), str(s.forced), f"{per:.1f}", f"{s.time_ms:.0f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for s in result.seats:
        for f in s.faults:
            # the turn as the viewer and `arena replay show` number it (decision d makes turn d + 1)
            at = f"turn {botlogs.turn_of(f.decision)}" if f.decision is not None else "start"
            lines.append(f"seat {s.seat} ({s.name}) {f.kind} at {at}: {f.message}")
    if result.replay_path:
        lines.append(f"replay: {result.replay_path}")
    return "\n".join(lines)
