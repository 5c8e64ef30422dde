"""The referee: plays one match between bot packages through the game engine.

It starts every bot (each in its own sandbox; all run at once and are waited for in parallel), waits until each
serves, calls each bot only for its own decisions, and stops them all at the end, whatever they did. Faults never
stop a match:

- timeout    no answer within the decision limit plus what is left of the bank (the bank is then empty); time
             in which the referee's own process was stalled (stopped, a paused VM: `arena.match.stalls`) is not
             charged, and a deadline that passed during such a stall asks the bot again with its time left;
- crash      the bot stopped serving (its process died, was OOM-killed, ...): disqualified at once;
- illegal    the answer names no legal action (index out of range, unknown text);
- malformed  the answer is not a readable DecideResponse, is too large, has no choice, or is an error status;
- startup    the package is broken, the bot never served within `startup_ms`, its socket is not served by its
             own sandbox (a symbolic link, another uid, a process outside its cgroup: arena.sandbox.endpoint),
             or StartMatch failed: disqualified before the first decision. The referee's own stalls are not
             charged to `startup_ms` either: a wait or StartMatch whose deadline passed during one is tried again.

Fair play: the referee talks to a bot only through the socket inode it pinned (`BotProcess.server_address`);
a bot is frozen from its answer to StartMatch on and thawed only for its own calls (the thaw is off its clock),
so it computes only on its own time; its `bot_seed` is keyed by a per-match secret (`bot_seed_key`) that only
the finished match's replay reveals.

For every faulted decision the engine plays a random legal action drawn from a generator seeded by the match
seed, so the match stays reproducible. A seat with more than `max_faults` faults is disqualified: its process is
stopped, it ranks last, and fallback actions play its seat to the end.

A decision with exactly one legal action is forced: with `TimeControl.auto_single_action` (the default) the
referee applies it without calling the bot, so it costs the bot no time and cannot fault; the replay marks it
`"forced": true`. Decision indices count forced decisions too, so a bot sees the gap.

A seat may be played by a person instead of a bot (`people`: arena.match.person): it gets the same messages under
the same rules, on the wall clock; it has no process, so it cannot crash, and it needs no start-up. A person may
resign: a `resigned` fault, then disqualification as above (ranked last, substitute moves to the end).
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from arena import botlogs, games
from arena import replay as replays
from arena import sandbox as sandboxes
from arena.botpkg import Manifest, ManifestError, load_manifest, package_sha256
from arena.games.base import Action, Game, State
from arena.match import stalls
from arena.match.botclock import FIRST_SAMPLE_S, POLL_S, BotClock, HostTrouble, backstop_s
from arena.match.client import BotClient, CallFailed
from arena.match.person import Person
from arena.match.protocol import BadAnswer, Encoder, chosen_index, new_bot_seed_key
from arena.match.ranking import final_ranks
from arena.match.types import BotSpec, Fault, FaultKind, MatchResult, SeatResult, TimeControl
from arena.sandbox.limits import SandboxLimits
from arena.sandbox.output import Segment

_log = logging.getLogger("arena.match")

#: How long EndMatch may take; its answer changes nothing.
END_MATCH_S = 0.5
#: How often a bot's process is checked between its calls (alive? within its CPU budget?).
CHECK_EVERY_S = 0.05


@dataclass
class _Seat:
    """One seat's bot during a match: its process, connection, clock and record."""

    index: int
    spec: BotSpec
    result: SeatResult
    manifest: Manifest | None = None
    process: sandboxes.BotProcess | None = None
    client: BotClient | None = None
    bank_ms: float = 0.0
    faults_counted: int = 0
    log: list[str] = field(default_factory=list)  # for `arena bot check`: what happened, in words
    tail: str = ""  # the bot's last output, kept when its process is closed
    segments: list[Segment] = field(default_factory=list)  # its output split by decision (arena.sandbox.output.Segment)
    annotations: dict[int, str] = field(default_factory=dict)  # decision -> DecideResponse.annotation
    asked: list[int] = field(default_factory=list)  # the decisions the bot was asked, in order
    unanswered: int | None = None  # the decision whose call timed out; a bot may still be computing it
    started_at: float = 0.0
    checked_at: float = 0.0
    closed: bool = False
    person: Person | None = None  # a person plays this seat (arena.match.person), not a bot process
    tc: TimeControl = TimeControl()  # this seat's clock: the match's, or its own (`run_match(seat_time_controls=)`)

    @property
    def out(self) -> bool:
        return self.result.disqualified

    def fault(self, kind: FaultKind, message: str, decision: int | None) -> None:
        turn = botlogs.turn_of(decision) if decision is not None else None
        self.result.faults.append(Fault(kind=kind, message=message, decision=decision, turn=turn))
        self.log.append(f"fault at turn {turn} (decision {decision}): {kind}: {message}" if decision is not None
                        else f"fault: {kind}: {message}")

    def disqualify(self, reason: str, decision: int | None) -> None:
        if self.result.disqualified:
            return
        self.fault(FaultKind.DISQUALIFIED, reason, decision)
        self.result.disqualified = True
        self.stop()

    def resign(self, decision: int) -> None:
        """The seat's person resigned (arena.match.person): out of the game as a disqualified seat."""
        self.fault(FaultKind.RESIGNED, "the person resigned", decision)
        self.disqualify("resigned", decision)

    def output_tail(self, n: int = 2000) -> str:
        """What the bot printed last, both ends kept (the first lines of a trace and its end)."""
        if self.closed:
            return self.tail
        try:
            if self.process is None:
                return ""
            output = self.process.output
            return output.excerpt(n) if output is not None else self.process.output_tail(n)
        except Exception:  # the tail is a courtesy; never fail a match for it
            return ""

    def mark_output(self, label: str | int) -> None:
        """Start a new stretch of the bot's output (arena.sandbox.output.OutputTail.mark)."""
        output = self.process.output if self.process is not None else None
        if output is not None:
            output.mark(label)

    def exit_description(self, wait_s: float = 0.0) -> str | None:
        """How the bot's process ended ("exited with code 1", "killed by the OOM killer ..."), or None if it runs
        (after waiting up to `wait_s` for it to end: a sandbox takes a few ms to go down after its bot died)."""
        if self.process is None:
            return None
        deadline = time.monotonic() + wait_s
        while (code := self.process.poll()) is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if code is None:
            return None
        reason = self.process.exit_reason()
        return reason or f"exited with code {code}"

    def stop(self) -> None:
        """Close the connection and end the bot's processes (idempotent)."""
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.process is not None and not self.closed:
            self.closed = True
            self.process.close()
            output = self.process.output
            if output is not None:  # complete now: the pipe closed with the bot's last process
                self.tail = output.excerpt(2000)
                self.segments = output.segments()
            else:
                self.tail = self.process.output_tail(2000)

    def logs(self) -> dict[str, Any]:
        """This seat's entry in the match's bot logs (arena.botlogs)."""
        stretches = {seg.label: seg for seg in self.segments}
        printed = sum(seg.total for seg in self.segments)
        cut = sum(seg.cut for seg in self.segments)
        decisions = []
        for d in self.asked:
            seg = stretches.get(d)
            decisions.append({"decision": d, "turn": botlogs.turn_of(d), "output": seg.text() if seg else "",
                              "annotation": self.annotations.get(d, "")})
        startup, end = stretches.get("startup"), stretches.get("end")
        return {"seat": self.index, "name": self.result.name, "startup": startup.text() if startup else "",
                "decisions": decisions, "end": end.text() if end else "", "printed_bytes": printed,
                "cut_bytes": cut}


def _launch(seat: _Seat, game: Game, limits: SandboxLimits, sandbox: bool) -> None:
    """Start one bot's process. Called from the match's own thread: bubblewrap's --die-with-parent kills the
    sandbox when the *thread* that started it ends, so bots must not be launched from short-lived pool threads."""
    seat.started_at = time.monotonic()
    if seat.manifest is None:
        return  # already disqualified for its package, or a person's seat
    if game.name not in seat.manifest.games:
        seat.fault(FaultKind.STARTUP, f"bot.toml lists games {list(seat.manifest.games)}, not {game.name!r}", None)
        seat.disqualify("cannot play this game", None)
        return
    try:
        seat.process = sandboxes.launch(Path(seat.spec.path).resolve(), list(seat.manifest.command),
                                        seat.manifest.sandbox_runtime, limits, sandbox=sandbox)
    except sandboxes.SandboxUnavailable as exc:  # the host passed its check, then could not set a sandbox up
        raise HostTrouble(f"the sandbox of seat {seat.index} could not be set up: {exc}") from exc
    except sandboxes.RuntimeMissing:
        raise  # the host's configuration, not the bot's
    except Exception as exc:
        seat.fault(FaultKind.STARTUP, f"could not start {' '.join(seat.manifest.command)!r}: {exc}", None)
        seat.disqualify("never started", None)


def _connect(seat: _Seat, encoder: Encoder, names: list[str], seed: int, key: bytes) -> None:
    """Wait until the bot serves and call StartMatch; on failure the seat is disqualified with a startup fault.
    Runs in parallel for all seats. `startup_ms` is on the bot's clock (`arena.match.botclock`: the CPU the host
    gave it, not the wall), from its launch to StartMatch's answer; raises HostTrouble when the wall backstop
    passes before the bot was given its `startup_ms`."""
    tc = seat.tc
    if seat.person is not None:
        seat.person.start(encoder.start(seat.index, names, seed, tc, key))
        return
    if seat.out or seat.process is None:
        return
    process = seat.process
    startup_s = tc.startup_ms / 1000
    # the start-up clock, on perf_counter's scale (the stall watch's): the seat was launched at `started_at`
    clock = BotClock(process, t0=time.perf_counter() - (time.monotonic() - seat.started_at), from_launch=True)
    clock.sample()
    serving = False
    try:
        while not (serving := process.wait_for_socket(POLL_S)) and process.poll() is None:
            if clock.sample() >= startup_s:
                break
            if clock.wall() >= backstop_s(startup_s):
                raise HostTrouble(f"seat {seat.index} ({seat.result.name}) was not given {tc.startup_ms} ms of "
                                  f"CPU to start within {backstop_s(startup_s):.0f} s ({clock.describe()})")
    except sandboxes.ForeignServer as exc:
        seat.fault(FaultKind.STARTUP, f"the bot does not serve its own socket: {exc}", None)
        seat.disqualify("served from outside its sandbox", None)
        return
    if not serving:
        ended = seat.exit_description()
        if ended:
            msg = f"the bot {ended} before serving on its socket"
        else:
            msg = f"the bot did not open its socket $ARENA_SOCKET within {tc.startup_ms} ms ({clock.describe()})"
        seat.fault(FaultKind.STARTUP, msg, None)
        seat.disqualify("never served", None)
        return
    seat.log.append(f"socket open after {clock.sample() * 1000:.0f} ms ({clock.describe()})")
    seat.client = BotClient(process.server_address)  # the pinned socket, never the bot's path
    request = encoder.start(seat.index, names, seed, tc, key)
    try:
        _call_on_clock(seat.client, "StartMatch", request, clock, startup_s, wait_for_ready=True)
    except CallFailed as exc:
        ended = seat.exit_description()
        seat.fault(FaultKind.STARTUP, f"StartMatch failed: {exc.message}" + (f"; the bot {ended}" if ended else ""),
                   None)
        seat.disqualify("could not start the match", None)
        return
    seat.log.append(f"ready after {clock.charged * 1000:.0f} ms ({clock.describe()})")
    process.freeze()  # until its first decision (see _decide)


def _call_on_clock(client: BotClient, method: str, request: Any, clock: BotClock, allowed_s: float, *,
                   wait_for_ready: bool = False) -> Any:
    """Call `Bot.<method>` and wait for its answer while the bot's `clock` is within `allowed_s`; returns the
    answer (`clock.charged` then says what it cost; a call answered within `FIRST_SAMPLE_S` is charged its wall
    time without reading the cgroup) or raises CallFailed (TIMEOUT once the clock passed `allowed_s`, answered
    or not) or HostTrouble (the wall backstop passed first: the host did not give the bot its time)."""
    backstop = backstop_s(allowed_s)
    # gRPC's own deadline only bounds a call the referee forgot: the wall backstop, plus room for its stalls
    future = client.start(method, request, 2 * backstop + 60, wait_for_ready=wait_for_ready)
    sampled = False
    try:
        while True:
            wait = POLL_S if sampled else max(0.0, FIRST_SAMPLE_S - clock.wall())
            expired = False  # gRPC's own deadline (the backstop and more) passed
            try:
                response = BotClient.answer(method, future, wait)
                break
            except grpc.FutureTimeoutError:
                pass
            except CallFailed as exc:
                if exc.kind != FaultKind.TIMEOUT:
                    raise
                expired = True
            sampled = True
            if clock.sample() >= allowed_s:
                raise CallFailed(FaultKind.TIMEOUT, f"no answer within {allowed_s * 1000:.0f} ms of the bot's "
                                                    f"clock ({clock.describe()})")
            if expired or clock.wall() >= backstop:
                raise HostTrouble(f"the host did not give a bot {allowed_s * 1000:.0f} ms of CPU for {method} "
                                  f"within {backstop:.0f} s ({clock.describe()})")
    finally:
        future.cancel()  # no-op once answered
    if sampled or clock.wall() >= FIRST_SAMPLE_S:
        clock.sample()
    else:
        clock.charged = clock.wall()
    if (stalled := clock.stalled()) > 0:
        _log.warning("the referee was stalled %.0f ms during the bot's %s: not charged to the bot", stalled * 1000,
                     method)
    if clock.charged > allowed_s:  # an answer that squeezed past the budget is still late
        raise CallFailed(FaultKind.TIMEOUT, f"answered after {clock.charged * 1000:.0f} ms of the bot's clock; "
                                            f"{allowed_s * 1000:.0f} ms were allowed ({clock.describe()})")
    return response


def _late(still: int | None, decision: int) -> str:
    """Why a call after a timed-out one is late too: a bot that serves one call at a time is still computing the
    old answer (it was frozen with it, and thawed with the new call)."""
    if still is None:
        return ""
    return (f"; your bot was perhaps still answering turn {botlogs.turn_of(still)} (decision {still}, which timed "
            f"out) when turn {botlogs.turn_of(decision)} was asked: a timed-out answer is thrown away, so stop "
            f"computing it (or serve calls concurrently)")


def _decide(seat: _Seat, encoder: Encoder, state: State, decision: int, legal: list[Action],
            capture: bool = True) -> tuple[int | None, float]:
    """Ask the seat's bot, on the seat's own clock; returns (index of its choice or None after a fault, ms it
    took)."""
    tc = seat.tc
    if seat.person is not None:
        return _ask_person(seat, seat.person, encoder, state, decision, legal)
    now = time.monotonic()
    ended = None
    if now - seat.checked_at >= CHECK_EVERY_S:
        # Is it still alive (a crash between calls), within its CPU budget for the match (the check kills it
        # otherwise)? ~150 µs with cgroups, so not before every call: a dead bot also fails its call at once.
        seat.checked_at = now
        ended = seat.exit_description()
    if ended:
        seat.fault(FaultKind.CRASH, f"the bot {ended}", decision)
        seat.disqualify("crashed", decision)
        return None, 0.0
    request = encoder.decide(decision, seat.index, state.observation(seat.index), legal,
                             tc.decision_ms, seat.bank_ms)
    allowed_ms = tc.decision_ms + seat.bank_ms
    if capture:
        seat.mark_output(decision)  # what it prints from here on belongs to this decision
    seat.asked.append(decision)
    still = seat.unanswered  # a timed-out call the bot may still be computing (it thaws with this one)
    seat.unanswered = None
    client, process = seat.client, seat.process
    assert client is not None and process is not None, "a seat still playing is connected"
    clock: BotClock | None = None
    try:
        process.thaw()  # a bot runs during its own decisions only: frozen between them (off its clock)
        clock = BotClock(process)
        try:
            response = _call_on_clock(client, "Decide", request, clock, allowed_ms / 1000)
        except CallFailed as exc:
            if exc.kind == FaultKind.TIMEOUT:  # say what the limit was, in the time control's terms
                raise CallFailed(FaultKind.TIMEOUT, f"no answer within {tc.decision_ms} ms + {seat.bank_ms:.0f} ms "
                                 f"of bank on the bot's clock ({clock.describe()})" + _late(still, decision)) from None
            raise
        finally:
            process.freeze()  # answered or not, it thinks no further on the others' time
        ms = clock.charged * 1000
        if response.annotation:
            seat.annotations[decision] = botlogs.clean_annotation(response.annotation)
        choice = chosen_index(response, legal)
    except (CallFailed, BadAnswer) as exc:
        ms = clock.charged * 1000 if clock is not None else 0.0
        _charge(seat, ms)
        kind, message = exc.kind, exc.message
        if kind == FaultKind.TIMEOUT:
            seat.bank_ms = 0.0
            seat.unanswered = decision
        if kind == FaultKind.CRASH:
            process.thaw()  # a dying bot cannot finish dying frozen
            ended = seat.exit_description(wait_s=2.0)
            if ended:
                message = f"the bot {ended}"
        _count_fault(seat, kind, message, decision)
        return None, ms
    _charge(seat, ms)
    return choice, ms


def _count_fault(seat: _Seat, kind: FaultKind, message: str, decision: int) -> None:
    """Record a fault of a decision; a crash disqualifies at once, more than `max_faults` faults too."""
    tc = seat.tc
    seat.fault(kind, message, decision)
    if kind == FaultKind.CRASH:
        seat.disqualify("crashed", decision)
    else:
        seat.faults_counted += 1
        if seat.faults_counted > tc.max_faults:
            seat.disqualify(f"more than {tc.max_faults} faults", decision)


def _ask_person(seat: _Seat, person: Person, encoder: Encoder, state: State, decision: int,
                legal: list[Action]) -> tuple[int | None, float]:
    """`_decide` for a person's seat: the same DecideRequest, the same limit and faults, on the wall clock less
    the referee's stalls (arena.match.person)."""
    tc = seat.tc
    request = encoder.decide(decision, seat.index, state.observation(seat.index), legal, tc.decision_ms, seat.bank_ms)
    allowed_ms = tc.decision_ms + seat.bank_ms
    seat.asked.append(decision)
    t0 = time.perf_counter()
    response = person.decide(request, allowed_ms / 1000)
    t1 = time.perf_counter()
    ms = max(0.0, (t1 - t0 - stalls.WATCH.overlap(t0, t1)) * 1000)
    if response is None and person.resigned():  # not a timeout: the person gave up during this decision
        _charge(seat, min(ms, allowed_ms))
        seat.resign(decision)
        return None, ms
    try:
        if response is None or ms > allowed_ms:
            raise CallFailed(FaultKind.TIMEOUT, f"no answer within {tc.decision_ms} ms + {seat.bank_ms:.0f} ms of "
                                                f"bank")
        choice = chosen_index(response, legal)
    except (CallFailed, BadAnswer) as exc:
        _charge(seat, min(ms, allowed_ms))
        if exc.kind == FaultKind.TIMEOUT:
            seat.bank_ms = 0.0
        _count_fault(seat, exc.kind, exc.message, decision)
        return None, ms
    _charge(seat, ms)
    return choice, ms


def _charge(seat: _Seat, ms: float) -> None:
    tc = seat.tc
    seat.result.time_ms += ms
    seat.result.decisions += 1
    if ms > tc.decision_ms:
        seat.bank_ms = max(0.0, seat.bank_ms - (ms - tc.decision_ms))


def default_replay_path(game: str, seed: int, directory: str | os.PathLike[str] = "replays") -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(directory) / f"{game}-{seed}-{stamp}-{os.getpid()}{replays.SUFFIX}"


def run_match(game: str, params: dict[str, Any], seed: int, bots: list[BotSpec], *,
              people: Mapping[int, Person] | None = None,
              time_control: TimeControl = TimeControl(),
              seat_time_controls: Mapping[int, TimeControl] | None = None, limits: SandboxLimits = SandboxLimits(),
              sandbox: bool = True, replay_path: str | None = None,
              progress: Callable[[int, State], None] | None = None,
              on_decision: Callable[[int, dict[str, Any]], None] | None = None, bot_seed_key: bytes | None = None,
              capture_output: bool = True, logs_path: str | os.PathLike[str] | None = None,
              _logs: list[list[str]] | None = None) -> MatchResult:
    """Play one match; see the module docstring. `params` are the game's parameters (players defaults to the
    number of bots). Never raises because of a bot; raises SandboxUnavailable if `sandbox` and the host cannot
    sandbox, ValueError for a wrong game, parameters or number of bots. `_logs`, if given, receives one list of
    lines per seat describing what its bot did (for `arena bot check`). `bot_seed_key` keys the bots' seeds
    (arena.match.protocol.bot_seed): a fresh secret when None; pass a replay's to make the same bots choose the
    same again. It never reaches a bot, and is written only into the finished match's replay.

    `people` maps seats to the persons who play them (arena.match.person); their `bots` entries give only the
    seats' names (`BotSpec.name`; the path is not read).

    `time_control` is every seat's clock but those of `seat_time_controls` (seat -> its own clock: a person's
    preset beside the bots' ladder clock); each seat's StartMatch, DecideRequests, limits and fault count follow
    its own, and the replay's seat entry records a clock of its own (`time_control`).

    The bots' own logs (what each printed, by decision, and its annotations: arena.botlogs) are written to
    `logs_path`, or beside the replay (`botlogs.logs_path(replay_path)`) when only `replay_path` is given.
    `on_decision(i, record)` hears of each decision as the replay records it (seat, action, events, fault...),
    just before `progress(i, state)` is given the state after it (the live narration: platform's matches.live).
    `capture_output=False` keeps only each bot's last output (for measuring what the capture costs)."""
    params = {"players": len(bots), **params}
    g = games.load(game, **params)
    if len(bots) != g.players:
        raise ValueError(f"{game} with players={g.players} needs {g.players} bots, got {len(bots)}")
    if sandbox:
        sandboxes.check_available()
    stalls.WATCH.ensure_running()  # the referee's own stalls are never charged to a bot (`_ask`)
    tc = time_control
    encoder = Encoder(g)
    key = bot_seed_key if bot_seed_key is not None else new_bot_seed_key()

    seats: list[_Seat] = []
    engine_opponents: list[dict[str, Any]] = []  # set when the game is over
    people = dict(people or {})
    if not set(people) <= set(range(len(bots))):
        raise ValueError(f"people sit at seats {sorted(people)}, but the match has {len(bots)} seats")
    own = dict(seat_time_controls or {})
    if not set(own) <= set(range(len(bots))):
        raise ValueError(f"clocks given for seats {sorted(own)}, but the match has {len(bots)} seats")
    for i, spec in enumerate(bots):
        stc = own.get(i, tc)
        if i in people:
            seats.append(_Seat(index=i, spec=spec, bank_ms=float(stc.bank_ms), tc=stc, person=people[i],
                               result=SeatResult(seat=i, name=spec.name or f"person {i + 1}", sha256="")))
            continue
        manifest, problem = None, None
        try:
            manifest = load_manifest(spec.path)
        except ManifestError as exc:
            problem = str(exc)
        package = Path(spec.path)
        sha = package_sha256(package if package.is_dir() else package.parent) if package.exists() else ""
        name = spec.name or (manifest.name if manifest else package.name)
        seat = _Seat(index=i, spec=spec, manifest=manifest, bank_ms=float(stc.bank_ms), tc=stc,
                     result=SeatResult(seat=i, name=name, sha256=sha))
        if problem:
            seat.fault(FaultKind.STARTUP, problem, None)
            seat.disqualify("broken bot package", None)
        seats.append(seat)
    names = [s.result.name for s in seats]

    fallback = random.Random(f"arena fallback:{seed}")
    decisions: list[dict[str, Any]] = []
    state = g.new_state(seed)
    void = ""
    try:
        try:
            for s in seats:
                _launch(s, g, limits, sandbox)
            with ThreadPoolExecutor(max_workers=len(seats)) as pool:
                list(pool.map(lambda s: _connect(s, encoder, names, seed, key), seats))
            _check_someone_started(seats)
            while not state.is_terminal():
                i = len(decisions)
                _note_resignations(seats, i)
                seat = seats[state.current_player()]
                legal = state.legal_actions()
                choice, ms, fault = None, 0.0, None
                forced = seat.tc.auto_single_action and len(legal) == 1
                if forced:  # not a choice: applied without asking, costs no time, draws no fallback
                    choice = 0
                    seat.result.forced += 1
                elif not seat.out:
                    before = len(seat.result.faults)
                    choice, ms = _decide(seat, encoder, state, i, legal, capture_output)
                    if len(seat.result.faults) > before:
                        first = seat.result.faults[before]
                        fault = {"kind": first.kind, "message": first.message}
                substitute = choice is None  # the seat is out, or faulted without a usable answer
                if choice is None:
                    choice = fallback.randrange(len(legal))
                    seat.result.substituted += 1
                action = legal[choice]
                events = state.apply(action)
                decisions.append({"seat": seat.index, "action": str(action), "ms": round(ms, 3), "fault": fault,
                                  "forced": forced, "substitute": substitute, "events": events})
                if on_decision is not None:  # the record the replay keeps, before `progress` sees the new state
                    on_decision(i, decisions[-1])
                if progress is not None:
                    progress(i, state)
        except HostTrouble as exc:
            void = f"void — host trouble: {exc}"
            _log.warning("match %s of %s set aside: %s", seed, game, void)

        if not void:
            scores = state.scores()
            ranks = final_ranks(state.ranking(), [s.out for s in seats], g.engine_opponents)
            for s in seats:
                s.result.score = scores[s.index]
                s.result.rank = ranks[s.index]
        engine_opponents = state.engine_opponent_results() if not void else []
        for s in seats:
            s.result.time_ms = round(s.result.time_ms, 3)
        results = [s.result for s in seats]
        live = [s for s in seats if not s.out and s.client is not None] if not void else []
        for s in seats:
            if s.person is not None and not void:
                s.person.end(encoder.end(s.index, results, state.observation(s.index)))
        if capture_output:
            for s in live:
                s.mark_output("end")
        if live:
            with ThreadPoolExecutor(max_workers=len(live)) as pool:
                for s in live:
                    pool.submit(_end, s, encoder, results, state)
    finally:
        with ThreadPoolExecutor(max_workers=len(seats)) as pool:
            list(pool.map(_Seat.stop, seats))
        if _logs is not None:
            _logs[:] = [s.log + ([f"last output of the bot:\n{s.tail}"] if s.tail.strip() else []) for s in seats]

    result = MatchResult(game=game, params=g.params, seed=seed, engine_version=g.engine_version,
                         seats=[s.result for s in seats], void=void, engine_opponents=engine_opponents)
    path = Path(replay_path) if replay_path else None
    if path is not None and not void:  # a void match has no result to replay
        replay = replays.build(g, seed, [{"seat": s.index, "name": s.result.name, "sha256": s.result.sha256,
                                          **({"time_control": s.tc.to_dict()} if s.index in own else {})}
                                         for s in seats], decisions, result, tc.to_dict(),
                                bot_seed_key=key)
        try:
            replays.write(path, replay)
            result.replay_path = str(path)
        except OSError as exc:  # a full or failing disk must not throw the played match away
            _log.warning("the replay could not be written to %s (%s): kept on the result", path, exc)
            result.unwritten_replay = replay
    if logs_path is None and path is not None:
        logs_path = botlogs.logs_path(path)
    if logs_path is not None:
        try:
            botlogs.write(logs_path, botlogs.document([s.logs() for s in seats]))
        except OSError as exc:  # the bots' own output is not worth the result
            _log.warning("the bots' logs could not be written to %s: %s", logs_path, exc)
    return result


def _note_resignations(seats: list[_Seat], decision: int) -> None:
    """Every person still playing who resigned since the last decision is out from `decision` on."""
    for s in seats:
        if s.person is not None and not s.out and s.person.resigned():
            s.resign(decision)


def _check_someone_started(seats: list[_Seat]) -> None:
    """Raise HostTrouble when every seat was launched and none of them started: bots that each fail alone are
    their authors' problem, all of a match's failing at once is the host's (a sandbox that cannot start
    anything, a machine too busy to start anyone)."""
    if all(s.process is not None and s.out for s in seats):
        reasons = sorted({f.message.split(" (")[0] for s in seats for f in s.result.faults
                          if f.kind == FaultKind.STARTUP})
        raise HostTrouble(f"every seat failed to start ({'; '.join(reasons)})")


def _end(seat: _Seat, encoder: Encoder, results: list[SeatResult], state: State) -> None:
    assert seat.client is not None and seat.process is not None, "only connected seats are told the result"
    seat.process.thaw()
    try:
        seat.client.call("EndMatch", encoder.end(seat.index, results, state.observation(seat.index)), END_MATCH_S)
    except CallFailed:
        pass  # the game is over; a bot that cannot take the result changes nothing

