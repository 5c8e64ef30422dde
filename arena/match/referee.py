"""The referee: plays one match between bot packages through the game engine.

It starts every bot (each in its own sandbox; all run at once and are waited for in parallel), waits until each
serves, calls each bot only for its own decisions, and stops them all at the end, whatever they did. Faults never
stop a match:

- timeout    no answer within the decision limit plus what is left of the bank (the bank is then empty);
- crash      the bot stopped serving (its process died, was OOM-killed, ...): disqualified at once;
- illegal    the answer names no legal action (index out of range, unknown text);
- malformed  the answer is not a readable DecideResponse, is too large, has no choice, or is an error status;
- startup    the package is broken, the bot never served within `startup_ms`, or StartMatch failed:
             disqualified before the first decision.

For every faulted decision the engine plays a random legal action drawn from a generator seeded by the match
seed, so the match stays reproducible. A seat with more than `max_faults` faults is disqualified: its process is
stopped, it ranks last, and fallback actions play its seat to the end.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from arena import games
from arena import replay as replays
from arena import sandbox as sandboxes
from arena.botpkg import ManifestError, Manifest, load_manifest, package_sha256
from arena.games.base import Game, State
from arena.match.client import BotClient, CallFailed
from arena.match.protocol import BadAnswer, Encoder, chosen_index
from arena.match.ranking import final_ranks
from arena.match.types import BotSpec, Fault, MatchResult, SeatResult, TimeControl
from arena.sandbox.limits import SandboxLimits

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
    process: Any = None  # arena.sandbox.BotProcess
    client: BotClient | None = None
    bank_ms: float = 0.0
    faults_counted: int = 0
    log: list[str] = field(default_factory=list)  # for `arena bot check`: what happened, in words
    tail: str = ""  # the bot's last output, kept when its process is closed
    started_at: float = 0.0
    checked_at: float = 0.0
    closed: bool = False

    @property
    def out(self) -> bool:
        return self.result.disqualified

    def fault(self, kind: str, message: str, decision: int | None) -> None:
        self.result.faults.append(Fault(kind=kind, message=message, decision=decision))
        self.log.append(f"fault at decision {decision}: {kind}: {message}" if decision is not None
                        else f"fault: {kind}: {message}")

    def disqualify(self, reason: str, decision: int | None) -> None:
        if self.result.disqualified:
            return
        self.fault("disqualified", reason, decision)
        self.result.disqualified = True
        self.stop()

    def output_tail(self, n: int = 2000) -> str:
        if self.closed:
            return self.tail
        try:
            return self.process.output_tail(n) if self.process is not None else ""
        except Exception:  # the tail is a courtesy; never fail a match for it
            return ""

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
            self.tail = self.output_tail()
            self.closed = True
            self.process.close()


def _launch(seat: _Seat, game: Game, limits: SandboxLimits, sandbox: bool) -> None:
    """Start one bot's process. Called from the match's own thread: bubblewrap's --die-with-parent kills the
    sandbox when the *thread* that started it ends, so bots must not be launched from short-lived pool threads."""
    seat.started_at = time.monotonic()
    if seat.manifest is None:
        return  # already disqualified for its package
    if game.name not in seat.manifest.games:
        seat.fault("startup", f"bot.toml lists games {list(seat.manifest.games)}, not {game.name!r}", None)
        seat.disqualify("cannot play this game", None)
        return
    try:
        seat.process = sandboxes.launch(Path(seat.spec.path).resolve(), list(seat.manifest.command),
                                        seat.manifest.sandbox_runtime, limits, sandbox=sandbox)
    except (sandboxes.SandboxUnavailable, sandboxes.RuntimeMissing):
        raise  # the host's problem, not the bot's
    except Exception as exc:
        seat.fault("startup", f"could not start {' '.join(seat.manifest.command)!r}: {exc}", None)
        seat.disqualify("never started", None)


def _connect(seat: _Seat, encoder: Encoder, names: list[str], seed: int, tc: TimeControl) -> None:
    """Wait until the bot serves and call StartMatch; on failure the seat is disqualified with a startup fault.
    Runs in parallel for all seats."""
    if seat.out or seat.process is None:
        return
    t0 = seat.started_at
    startup_s = tc.startup_ms / 1000
    if not seat.process.wait_for_socket(max(0.0, startup_s - (time.monotonic() - t0))):
        ended = seat.exit_description()
        if ended:
            msg = f"the bot {ended} before serving on its socket"
        else:
            msg = f"the bot did not open its socket $ARENA_SOCKET within {tc.startup_ms} ms"
        seat.fault("startup", msg, None)
        seat.disqualify("never served", None)
        return
    seat.log.append(f"socket open after {(time.monotonic() - t0) * 1000:.0f} ms")
    seat.client = BotClient(seat.process.socket_path)
    left = startup_s - (time.monotonic() - t0)
    try:
        seat.client.call("StartMatch", encoder.start(seat.index, names, seed, tc), max(left, 0.05),
                         wait_for_ready=True)
    except CallFailed as exc:
        ended = seat.exit_description()
        seat.fault("startup", f"StartMatch failed: {exc.message}" + (f"; the bot {ended}" if ended else ""), None)
        seat.disqualify("could not start the match", None)
        return
    seat.log.append(f"ready after {(time.monotonic() - t0) * 1000:.0f} ms")


def _decide(seat: _Seat, encoder: Encoder, state: State, decision: int, legal: list, tc: TimeControl,
            ) -> tuple[int | None, float]:
    """Ask the seat's bot; returns (index of its choice or None after a fault, ms it took)."""
    now = time.monotonic()
    ended = None
    if now - seat.checked_at >= CHECK_EVERY_S:
        # Is it still alive (a crash between calls), within its CPU budget for the match (the check kills it
        # otherwise)? ~150 µs with cgroups, so not before every call: a dead bot also fails its call at once.
        seat.checked_at = now
        ended = seat.exit_description()
    if ended:
        seat.fault("crash", f"the bot {ended}", decision)
        seat.disqualify("crashed", decision)
        return None, 0.0
    request = encoder.decide(decision, seat.index, state.observation(seat.index), legal,
                             tc.decision_ms, seat.bank_ms)
    allowed_ms = tc.decision_ms + seat.bank_ms
    t0 = time.perf_counter()
    try:
        try:
            response = seat.client.call("Decide", request, allowed_ms / 1000)
        except CallFailed as exc:
            if exc.kind == "timeout":  # the gRPC deadline passed: say what the limit was, in the clock's terms
                raise CallFailed("timeout", f"no answer within {tc.decision_ms} ms + {seat.bank_ms:.0f} ms of "
                                            f"bank") from None
            raise
        ms = (time.perf_counter() - t0) * 1000
        if ms > allowed_ms:  # an answer that squeezed past the deadline is still late
            raise CallFailed("timeout", f"answered after {ms:.0f} ms; the limit was {tc.decision_ms} ms + "
                                        f"{seat.bank_ms:.0f} ms of bank")
        choice = chosen_index(response, legal)
    except (CallFailed, BadAnswer) as exc:
        ms = (time.perf_counter() - t0) * 1000
        _charge(seat, ms, tc)
        kind, message = exc.kind, exc.message
        if kind == "timeout":
            seat.bank_ms = 0.0
        if kind == "crash":
            ended = seat.exit_description(wait_s=2.0)
            if ended:
                message = f"the bot {ended}"
        seat.fault(kind, message, decision)
        if kind == "crash":
            seat.disqualify("crashed", decision)
        else:
            seat.faults_counted += 1
            if seat.faults_counted > tc.max_faults:
                seat.disqualify(f"more than {tc.max_faults} faults", decision)
        return None, ms
    _charge(seat, ms, tc)
    return choice, ms


def _charge(seat: _Seat, ms: float, tc: TimeControl) -> None:
    seat.result.time_ms += ms
    seat.result.decisions += 1
    if ms > tc.decision_ms:
        seat.bank_ms = max(0.0, seat.bank_ms - (ms - tc.decision_ms))


def default_replay_path(game: str, seed: int, directory: str | os.PathLike = "replays") -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(directory) / f"{game}-{seed}-{stamp}-{os.getpid()}{replays.SUFFIX}"


def run_match(game: str, params: dict, seed: int, bots: list[BotSpec], *,
              time_control: TimeControl = TimeControl(), limits: SandboxLimits = SandboxLimits(),
              sandbox: bool = True, replay_path: str | None = None,
              progress: Callable[[int, State], None] | None = None,
              _logs: list[list[str]] | None = None) -> MatchResult:
    """Play one match; see the module docstring. `params` are the game's parameters (players defaults to the
    number of bots). Never raises because of a bot; raises SandboxUnavailable if `sandbox` and the host cannot
    sandbox, ValueError for a wrong game, parameters or number of bots. `_logs`, if given, receives one list of
    lines per seat describing what its bot did (for `arena bot check`)."""
    params = {"players": len(bots), **params}
    g = games.load(game, **params)
    if len(bots) != g.players:
        raise ValueError(f"{game} with players={g.players} needs {g.players} bots, got {len(bots)}")
    if sandbox:
        sandboxes.check_available()
    tc = time_control
    encoder = Encoder(g)

    seats: list[_Seat] = []
    for i, spec in enumerate(bots):
        manifest, problem = None, None
        try:
            manifest = load_manifest(spec.path)
        except ManifestError as exc:
            problem = str(exc)
        path = Path(spec.path)
        sha = package_sha256(path if path.is_dir() else path.parent) if path.exists() else ""
        name = spec.name or (manifest.name if manifest else path.name)
        seat = _Seat(index=i, spec=spec, manifest=manifest, bank_ms=float(tc.bank_ms),
                     result=SeatResult(seat=i, name=name, sha256=sha))
        if problem:
            seat.fault("startup", problem, None)
            seat.disqualify("broken bot package", None)
        seats.append(seat)
    names = [s.result.name for s in seats]

    fallback = random.Random(f"arena fallback:{seed}")
    decisions: list[dict[str, Any]] = []
    state = g.new_state(seed)
    try:
        for s in seats:
            _launch(s, g, limits, sandbox)
        with ThreadPoolExecutor(max_workers=len(seats)) as pool:
            list(pool.map(lambda s: _connect(s, encoder, names, seed, tc), seats))
        while not state.is_terminal():
            i = len(decisions)
            seat = seats[state.current_player()]
            legal = state.legal_actions()
            choice, ms, fault = None, 0.0, None
            if not seat.out:
                before = len(seat.result.faults)
                choice, ms = _decide(seat, encoder, state, i, legal, tc)
                if len(seat.result.faults) > before:
                    first = seat.result.faults[before]
                    fault = {"kind": first.kind, "message": first.message}
            if choice is None:
                choice = fallback.randrange(len(legal))
            action = legal[choice]
            events = state.apply(action)
            decisions.append({"seat": seat.index, "action": str(action), "ms": round(ms, 3), "fault": fault,
                              "events": events})
            if progress is not None:
                progress(i, state)

        scores = state.scores()
        ranks = final_ranks(state.ranking(), [s.out for s in seats], g.engine_opponents)
        for s in seats:
            s.result.score = scores[s.index]
            s.result.rank = ranks[s.index]
            s.result.time_ms = round(s.result.time_ms, 3)
        results = [s.result for s in seats]
        live = [s for s in seats if not s.out and s.client is not None]
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
                         seats=[s.result for s in seats])
    path = Path(replay_path) if replay_path else None
    if path is not None:
        replay = replays.build(g, seed, [{"seat": s.index, "name": s.result.name, "sha256": s.result.sha256}
                                         for s in seats], decisions, result, tc.to_dict())
        replays.write(path, replay)
        result.replay_path = str(path)
    return result


def _end(seat: _Seat, encoder: Encoder, results: list[SeatResult], state: State) -> None:
    try:
        seat.client.call("EndMatch", encoder.end(seat.index, results, state.observation(seat.index)), END_MATCH_S)
    except CallFailed:
        pass  # the game is over; a bot that cannot take the result changes nothing

