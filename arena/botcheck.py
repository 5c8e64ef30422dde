"""`check_bot`: "why did my bot fail?" answered before a bot plays for real.

It validates the manifest, builds a `binary` bot whose program is missing or older than its sources
(arena.botbuild, sandboxed like the bot; the manifest read again afterwards must be the one validated), checks that
the command can be found, then plays a short smoke match (locally the bot against built-in random bots, with the
platform's default time control; on the platform a ladder's table: `check_bot`'s `params`, `name`, `opponents`) and explains every problem in plain words: a failed build (with the compiler's first
error and last lines),
a missing manifest field, a command that does not exist, a bot that never opened its socket (with what it
printed), a crash (with its last output), illegal or malformed answers (with examples), timeouts.

`path` may also be an archive (.zip or .tar.gz), unpacked exactly as the platform unpacks an upload
(arena.botarchive: the same limits, executable bits kept). Besides problems, the check gives *warnings* that do not
fail it: a first decision that ate most of the time bank (do the set-up in StartMatch instead).

The smoke match's seed and the bot's seat are drawn with `secrets` unless given (`smoke_setup`), so a bot cannot
tell that it is being validated and behave only then. `CheckReport.reason` is the outcome in one line of words,
safe to show anyone; `problems` and `log` hold the details (compiler output, the bot's own output), for the
bot's author only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena import botarchive, botbuild, games, reasons
from arena import replay as replays
from arena.botpkg import Manifest, ManifestError, load_manifest
from arena.games.speech import N_, _
from arena.match import BotSpec, MatchResult, TimeControl, run_match
from arena.reasons import Reason, render_all
from arena.sandbox import runtimes
from arena.sandbox.errors import SandboxUnavailable
from arena.sandbox.limits import SandboxLimits

BUILTIN_OPPONENT = Path(__file__).resolve().parent.parent / "bots" / "python" / "random"
# the reason of a build stopped by its time limit: transient (the platform lets the owner validate again)
BUILD_TIMED_OUT = Reason("check.build_timed_out").english()

#: what the bot did, by kind of fault: "your bot <did>: <examples>" (once) or "... <did> <n> times: ..."
_KIND_WORDS = {
    "startup": (N_("your bot did not get ready: %(examples)s"), N_("your bot did not get ready %(n)s times: %(examples)s")),
    "timeout": (N_("your bot answered too late: %(examples)s"), N_("your bot answered too late %(n)s times: %(examples)s")),
    "crash": (N_("your bot crashed: %(examples)s"), N_("your bot crashed %(n)s times: %(examples)s")),
    "illegal": (N_("your bot answered an action that is not legal: %(examples)s"),
                N_("your bot answered an action that is not legal %(n)s times: %(examples)s")),
    "malformed": (N_("your bot answered something that is not a valid answer: %(examples)s"),
                  N_("your bot answered something that is not a valid answer %(n)s times: %(examples)s")),
}


#: the reason of each kind of fault in the smoke match (arena.reasons)
_KIND_REASONS = {kind: Reason(f"check.{kind}") for kind in ("startup", "timeout", "crash", "illegal", "malformed")}


@dataclass
class CheckReport:
    ok: bool
    problems: list[str] = field(default_factory=list)  # in detail, for the bot's author
    log: str = ""                                      # for the bot's author
    result: MatchResult | None = None
    reasons: list[Reason] = field(default_factory=list)  # one per kind of problem, no bot output (arena.reasons)
    seed: int | None = None                            # of the smoke match
    seat: int | None = None                            # the bot's seat in the smoke match
    warnings: list[str] = field(default_factory=list)  # worth fixing, but the bot passes (for its author)

    @property
    def reason(self) -> str:
        """The outcome in one line of words, without source, compiler output or server paths: safe to show
        anyone ("" when the bot passed)."""
        return render_all(self.outcome, "en")

    @property
    def outcome(self) -> list[Reason]:
        """Why the bot failed, as reasons to tell in any language ([] when it passed)."""
        if self.ok:
            return []
        return list(dict.fromkeys(self.reasons)) or [Reason("check.failed")]


def smoke_setup(players: int) -> tuple[int, int]:
    """A fresh smoke-match seed (63 bits) and seat for the checked bot, from `secrets`."""
    return secrets.randbits(63), secrets.randbelow(players)


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
        local = manifest.path / program
        if local.is_file() and not local.is_symlink():
            # the shell's rule: a command without a '/' is looked up on PATH, never in the current folder
            return (f"the command {program!r} names a file of the bot folder, but a command without a '/' is "
                    f"looked up on PATH ({':'.join(places)}), not in the folder: write \"./{program}\" in "
                    f"bot.toml's command")
        hint = {"python": " (use \"python\")", "node": " (use \"node\")"}.get(manifest.runtime, "")
        return f"the command {program!r} is not a program of the {manifest.runtime} runtime{hint}"
    # load_manifest let through only paths inside the folder: never probe the host's own paths
    target = manifest.path / (program[len("/bot/"):] if program.startswith("/bot/") else program)
    if target.is_symlink() or not target.resolve().is_relative_to(manifest.path.resolve()):
        return f"the command {program!r} is a link; it must be a file in the bot folder"
    if not target.exists():
        built = " (was it built? declare `build` in bot.toml)" if manifest.runtime == "binary" else ""
        return f"the command {program!r} is not in the bot folder{built}"
    if not os.access(target, os.X_OK):
        return f"the command {program!r} is not executable (chmod +x it)"
    return None


def check_bot(path: str | os.PathLike, *, sandbox: bool = True, game: str | None = None,
              seed: int | None = None, seat: int | None = None, time_control: TimeControl = TimeControl(),
              limits: SandboxLimits = SandboxLimits(), build_cache: Path | None = None,
              params: dict | None = None, name: str | None = None,
              opponents: Sequence[BotSpec] | None = None) -> CheckReport:
    """Validate the bot package at `path` and play one smoke match of `game` (default: the first game of its
    manifest that Arena has), with `seed` and the bot in `seat` (each drawn by `smoke_setup` when None). Raises
    SandboxUnavailable / RuntimeMissing only for problems of this host. `build_cache`: the bot's build cache
    (arena.botbuild; None: the folder's own under the local default). An archive `path` is unpacked into a
    temporary folder first (arena.botarchive, as the platform does).

    The table: `params` (the game's options, "players" among them; default: the game's fewest players), the bot
    named `name` (default: its manifest's) and `opponents` for the other seats in order (default: built-in random
    bots named random-1, random-2...). The platform gives a ladder's table, so that the smoke match looks like
    a ladder match to the bot (botregistry.tasks)."""
    if Path(path).is_file():
        with tempfile.TemporaryDirectory(prefix="arena-check-") as tmp:
            folder = Path(tmp) / "package"
            try:
                with open(path, "rb") as data:
                    botarchive.unpack(data, folder, max_bytes=botarchive.DEFAULT_MAX_BYTES,
                                      max_files=botarchive.DEFAULT_MAX_FILES)
            except botarchive.ArchiveError as exc:
                return CheckReport(ok=False, problems=[str(exc)], log=str(exc),
                                   reasons=[Reason("check.archive_unpack")])
            report = check_bot(folder, sandbox=sandbox, game=game, seed=seed, seat=seat, time_control=time_control,
                               limits=limits, build_cache=build_cache, params=params, name=name,
                               opponents=opponents)
            report.log = f"unpacked {Path(path).name} as the platform does\n" + report.log
            return report
    log: list[str] = []

    def failed(problem: str, reason: Reason) -> CheckReport:
        return CheckReport(ok=False, problems=[problem], log="\n".join(log + [problem]), reasons=[reason])

    try:
        manifest = load_manifest(path)
    except ManifestError as exc:
        return CheckReport(ok=False, problems=[str(exc)], log=str(exc), reasons=[Reason("check.manifest_invalid")])
    log.append(f"manifest ok: {manifest.name}, games {', '.join(manifest.games)}, runtime {manifest.runtime}, "
               f"command {' '.join(manifest.command)}")
    known = [g for g in manifest.games if g in games.names()]
    if game is None:
        if not known:
            return failed(f"none of the games in bot.toml ({', '.join(manifest.games)}) is played here; "
                          f"games: {', '.join(games.names())}", Reason("check.no_game_here"))
        game = known[0]
    elif game not in manifest.games:
        return failed(f"bot.toml does not list the game {game!r} (it lists {', '.join(manifest.games)})",
                      Reason("check.game_not_listed", {"game": game}))
    stale = botbuild.build_needed(manifest)
    if stale:
        log.append(f"building first ({stale}): {' '.join(manifest.build or ())}")
        try:
            built = botbuild.build(manifest.path, sandbox=sandbox, cache_dir=build_cache)
        except botbuild.BuildError as exc:
            return failed(str(exc), Reason("check.build_refused") if exc.refused
                          else Reason("check.build_timed_out") if exc.timed_out else Reason("check.build_failed"))
        log.append(f"built {built.program.relative_to(manifest.path)} in {built.seconds:.1f} s")
        try:
            rebuilt = load_manifest(manifest.path)
        except ManifestError:
            rebuilt = None
        if rebuilt != manifest:  # what was validated above must be what runs
            return failed("the build changed bot.toml; a build may not change the manifest",
                          Reason("check.build_changed_manifest"))
    problem = _command_problem(manifest)
    if problem:
        return failed(problem, Reason("check.command"))

    params = dict(params or {})
    players = int(params.setdefault("players", games.game_class(game).min_players))
    if opponents is not None and len(opponents) != players - 1:
        raise ValueError(f"{len(opponents)} opponents for a {players}-player smoke match")
    drawn_seed, drawn_seat = smoke_setup(players)
    seed = drawn_seed if seed is None else seed
    seat = drawn_seat if seat is None else seat
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} of a {players}-player smoke match")
    others = iter(opponents if opponents is not None else
                  [BotSpec(str(BUILTIN_OPPONENT), name=f"random-{i}") for i in range(1, players)])
    bots = [BotSpec(str(manifest.path), name=name) if i == seat else next(others) for i in range(players)]
    seat_logs: list[list[str]] = []
    engine = games.load(game, players=players).engine_opponents
    if players == 1:  # a solo game: the opponent is the game's own automated player (Minos' Rhadamanthus)
        against = f"a solo match against the game's own automated opponent{'s' if engine > 1 else ''}"
    else:
        against = f"your bot in seat {seat} against built-in bots"
    log.append(f"smoke match: {game}, {players} player{'s' if players > 1 else ''}, seed {seed}, {against}; "
               f"{time_control.decision_ms} ms per decision + {time_control.bank_ms} ms bank")
    with tempfile.TemporaryDirectory(prefix="arena-check-") as tmp:
        replay_file = Path(tmp) / f"smoke{replays.SUFFIX}"
        result = run_match(game, params, seed, bots, time_control=time_control, limits=limits,
                           sandbox=sandbox, replay_path=str(replay_file), _logs=seat_logs)
        if result.void:  # the machine could not give the bots their time: nothing is known about the bot
            raise SandboxUnavailable(f"the smoke match could not be played fairly here ({result.void}); try again "
                                     "on a less busy machine")
        decisions = replays.load(replay_file)["decisions"]
    mine = result.seats[seat]
    warnings = _bank_warning(decisions, seat, time_control)
    lines = seat_logs[seat] if len(seat_logs) > seat else []
    log += [f"  {line}" for line in lines]
    problems = _explain(mine, lines)
    log.append(f"result: rank {mine.rank} of {players + engine}, score {mine.score:g}, {mine.decisions} decisions, "
               f"{mine.time_ms / mine.decisions if mine.decisions else 0:.1f} ms per decision, "
               f"{len(mine.faults)} faults")
    log += [f"problem: {p}" for p in problems]
    log += [f"warning: {w}" for w in warnings]
    outcome = [_KIND_REASONS.get(f.kind, Reason("check.faulted")) for f in mine.faults
               if f.kind != "disqualified"]
    if mine.disqualified:
        outcome.append(Reason("check.disqualified"))
    return CheckReport(ok=not problems, problems=problems, log="\n".join(log), result=result, reasons=outcome,
                       seed=seed, seat=seat, warnings=warnings)


#: A first decision that takes more than this share of the bank gets a warning.
BANK_WARNING_SHARE = 0.5


def _bank_warning(decisions: list[dict], seat: int, tc: TimeControl) -> list[str]:
    """A warning when the bot's first decision took more than BANK_WARNING_SHARE of its bank: that is often
    one-time set-up (loading tables, compiling, warming a cache) that belongs in StartMatch, which has its own
    `startup_ms`, instead of spending the time meant for the whole match."""
    first = next((d for d in decisions if d["seat"] == seat and not d.get("forced")), None)
    if first is None or tc.bank_ms <= 0:
        return []
    over = first["ms"] - tc.decision_ms
    if over <= BANK_WARNING_SHARE * tc.bank_ms:
        return []
    return [_("your bot's first decision took %(ms)s ms: %(over)s ms over the %(decision)s ms per decision came out "
              "of its %(bank)s ms time bank for the whole match (%(share)s%% of it). Do one-time set-up when the bot "
              "starts or in StartMatch (it has %(startup)s ms of its own), not in the first decision") % {
        "ms": f"{first['ms']:.0f}", "over": f"{over:.0f}", "decision": tc.decision_ms, "bank": tc.bank_ms,
        "share": f"{100 * over / tc.bank_ms:.0f}", "startup": tc.startup_ms}]


def _explain(seat, lines: list[str]) -> list[str]:
    """One plain sentence per kind of fault, with examples and the bot's last output where it helps, in the
    language being spoken (`arena.games.speech.speaking`; the referee's messages re-told, arena.reasons)."""
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
        examples = reasons.join([_("turn %(turn)s: %(what)s") % {"turn": f.decision + 1, "what": reasons.retell(f.message)}
                                 if f.decision is not None else reasons.retell(f.message) for f in faults[:3]])
        if len(faults) > 3:
            examples = _("%(examples)s (and %(more)s more)") % {"examples": examples, "more": len(faults) - 3}
        once, often = _KIND_WORDS.get(kind, (N_("your bot faulted: %(examples)s"),
                                             N_("your bot faulted %(n)s times: %(examples)s")))
        text = _(once if len(faults) == 1 else often) % {"n": len(faults), "examples": examples}
        if kind == "startup" and any("did not open its socket" in f.message for f in faults):
            text += _(". A bot must listen as a gRPC server on the unix socket named by the environment variable "
                      "ARENA_SOCKET (`unix:$ARENA_SOCKET`) as soon as it starts")
        if kind in ("startup", "crash") and tail.strip():
            # both ends kept (arena.sandbox.output.OutputTail.excerpt): where a panic starts and how it ends
            text += "\n" + _("its last output was:") + "\n" + _indent(tail.strip())
        problems.append(text)
    if seat.disqualified:
        why = next((f.message for f in seat.faults if f.kind == "disqualified"), "")
        problems.append(_("your bot was disqualified (%(why)s): on the platform it would rank last")
                        % {"why": reasons.retell(why)})
    return problems


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
