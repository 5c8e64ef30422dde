"""`check_bot`: "why did my bot fail?" answered before a bot plays for real.

It validates the manifest, builds a `binary` bot whose program is missing or older than its sources
(arena.botbuild, sandboxed like the bot), checks that the command can be found, then plays a short smoke match
(the bot in seat 0 against built-in random bots, with the platform's time control) and explains every problem in
plain words: a failed build (with the compiler's first error and last lines),
a missing manifest field, a command that does not exist, a bot that never opened its socket (with what it
printed), a crash (with its last output), illegal or malformed answers (with examples), timeouts.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from arena import botbuild, games
from arena.botpkg import ManifestError, Manifest, load_manifest
from arena.match import BotSpec, MatchResult, TimeControl, run_match
from arena.sandbox import runtimes
from arena.sandbox.limits import SandboxLimits

BUILTIN_OPPONENT = Path(__file__).resolve().parent.parent / "bots" / "python" / "random"

_KIND_WORDS = {
    "startup": "did not get ready",
    "timeout": "answered too late",
    "crash": "crashed",
    "illegal": "answered an action that is not legal",
    "malformed": "answered something that is not a valid answer",
}


@dataclass
class CheckReport:
    ok: bool
    problems: list[str] = field(default_factory=list)
    log: str = ""
    result: MatchResult | None = None


def _command_problem(manifest: Manifest) -> str | None:
    """Whether the first word of `command` can be found where the bot will run (cwd /bot; PATH /runtime/bin for
    Python, then /usr/bin)."""
    program = manifest.command[0]
    if "/" not in program:
        places = ["/usr/bin"]
        if manifest.runtime == "python":
            places.insert(0, str(runtimes.runtime_path("python") / "bin"))
        if any(shutil.which(program, path=p) for p in places):
            return None
        hint = {"python": " (use \"python\")", "node": " (use \"node\")"}.get(manifest.runtime, "")
        return f"the command {program!r} is not a program of the {manifest.runtime} runtime{hint}"
    if program.startswith("/bot/"):
        target = manifest.path / program[len("/bot/"):]
    elif program.startswith("/"):
        if Path(program).exists():
            return None
        return (f"the command {program!r} does not exist (inside the sandbox only /usr, the runtime and your "
                f"folder, at /bot, are visible)")
    else:
        target = manifest.path / program
    if not target.exists():
        built = " (was it built? declare `build` in bot.toml)" if manifest.runtime == "binary" else ""
        return f"the command {program!r} is not in the bot folder{built}"
    if not os.access(target, os.X_OK):
        return f"the command {program!r} is not executable (chmod +x it)"
    return None


def check_bot(path: str | os.PathLike, *, sandbox: bool = True, game: str | None = None, seed: int = 1,
              time_control: TimeControl = TimeControl(), limits: SandboxLimits = SandboxLimits()) -> CheckReport:
    """Validate the bot package at `path` and play one smoke match of `game` (default: the first game of its
    manifest that Arena has). Raises SandboxUnavailable / RuntimeMissing only for problems of this host."""
    log: list[str] = []
    try:
        manifest = load_manifest(path)
    except ManifestError as exc:
        return CheckReport(ok=False, problems=[str(exc)], log=str(exc))
    log.append(f"manifest ok: {manifest.name}, games {', '.join(manifest.games)}, runtime {manifest.runtime}, "
               f"command {' '.join(manifest.command)}")
    known = [g for g in manifest.games if g in games.names()]
    if game is None:
        if not known:
            problem = (f"none of the games in bot.toml ({', '.join(manifest.games)}) is played here; "
                       f"games: {', '.join(games.names())}")
            return CheckReport(ok=False, problems=[problem], log="\n".join(log + [problem]))
        game = known[0]
    elif game not in manifest.games:
        problem = f"bot.toml does not list the game {game!r} (it lists {', '.join(manifest.games)})"
        return CheckReport(ok=False, problems=[problem], log="\n".join(log + [problem]))
    stale = botbuild.build_needed(manifest)
    if stale:
        log.append(f"building first ({stale}): {' '.join(manifest.build)}")
        try:
            built = botbuild.build(manifest.path, sandbox=sandbox)
        except botbuild.BuildError as exc:
            return CheckReport(ok=False, problems=[str(exc)], log="\n".join(log + [str(exc)]))
        log.append(f"built {built.program.relative_to(manifest.path)} in {built.seconds:.1f} s")
    problem = _command_problem(manifest)
    if problem:
        return CheckReport(ok=False, problems=[problem], log="\n".join(log + [problem]))

    players = games.game_class(game).min_players
    bots = [BotSpec(str(manifest.path))] + [BotSpec(str(BUILTIN_OPPONENT), name=f"random-{i}")
                                            for i in range(1, players)]
    seat_logs: list[list[str]] = []
    log.append(f"smoke match: {game}, {players} players, seed {seed}, your bot in seat 0 against built-in random "
               f"bots; {time_control.decision_ms} ms per decision + {time_control.bank_ms} ms bank")
    result = run_match(game, {"players": players}, seed, bots, time_control=time_control, limits=limits,
                       sandbox=sandbox, _logs=seat_logs)
    mine = result.seats[0]
    log += [f"  {line}" for line in (seat_logs[0] if seat_logs else [])]
    problems = _explain(mine, seat_logs[0] if seat_logs else [])
    log.append(f"result: rank {mine.rank} of {players}, score {mine.score:g}, {mine.decisions} decisions, "
               f"{mine.time_ms / mine.decisions if mine.decisions else 0:.1f} ms per decision, "
               f"{len(mine.faults)} faults")
    log += [f"problem: {p}" for p in problems]
    return CheckReport(ok=not problems, problems=problems, log="\n".join(log), result=result)


def _explain(seat, lines: list[str]) -> list[str]:
    """One plain sentence per kind of fault, with examples and the bot's last output where it helps."""
    tail = ""
    for line in lines:
        if line.startswith("last output of the bot:"):
            tail = line.split("\n", 1)[1] if "\n" in line else ""
    problems = []
    by_kind: dict[str, list] = {}
    for f in seat.faults:
        if f.kind != "disqualified":
            by_kind.setdefault(f.kind, []).append(f)
    for kind, faults in by_kind.items():
        examples = "; ".join(f"decision {f.decision}: {f.message}" if f.decision is not None else f.message
                             for f in faults[:3])
        more = f" (and {len(faults) - 3} more)" if len(faults) > 3 else ""
        times = "" if len(faults) == 1 else f" {len(faults)} times"
        text = f"your bot {_KIND_WORDS.get(kind, kind)}{times}: {examples}{more}"
        if kind == "startup" and "did not open its socket" in examples:
            text += (". A bot must listen as a gRPC server on the unix socket named by the environment variable "
                     "ARENA_SOCKET (`unix:$ARENA_SOCKET`) as soon as it starts")
        if kind in ("startup", "crash") and tail.strip():
            text += "\nits last output was:\n" + _indent(tail.strip()[-1500:])
        problems.append(text)
    if seat.disqualified:
        why = next((f.message for f in seat.faults if f.kind == "disqualified"), "")
        problems.append(f"your bot was disqualified ({why}): on the platform it would rank last")
    return problems


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
