"""Re-ask a bot any position of a replay: rebuild the DecideRequest the deciding seat got at decision D and send it
to a bot folder (sandboxed as on the platform, or as a plain process), with the StartMatch that seat got.

The position is re-simulated from the replay's seed and recorded actions (the engine version must match); the
request is the referee's own (`arena.match.protocol.Encoder.decide`), with the match's time control. The bot seed
is the one the seat had (from the replay's `bot_seed_key`, when the replay has it), so a bot that plays by its
seed answers as it did in the match.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import replay as replays
from arena.botlogs import clean_annotation
from arena.botpkg import load_manifest
from arena.games.base import Action, State
from arena.match.botclock import backstop_s
from arena.match.client import BotClient, CallFailed
from arena.match.protocol import BadAnswer, Encoder, chosen_index
from arena.match.types import TimeControl
from arena.sandbox import SandboxLimits, launch

__all__ = ["AskResult", "ask", "position"]

#: how long the bot may take to open its socket (wall clock: this is a tool, not a rated match)
START_WAIT_S = 30.0


@dataclass
class AskResult:
    decision: int
    seat: int
    legal: list[str]
    recorded: str  # the action the replay recorded
    answer: str | None  # the legal action the bot named now (None: no usable answer)
    annotation: str
    output: str  # what the bot printed while starting and deciding
    ms: float  # wall time of the Decide call
    error: str = ""


def position(replay: dict[str, Any], decision: int) -> tuple[State, int, list[Action]]:
    """(the state before `decision`, the seat deciding, its legal actions), re-simulated from the replay."""
    decisions = replay["decisions"]
    if not 0 <= decision < len(decisions):
        raise ValueError(f"the replay has decisions 0..{len(decisions) - 1}, not {decision}")
    state = replays._new_state(replay, check_version=True)
    for i, d in enumerate(decisions[:decision]):
        if state.current_player() != d["seat"]:
            raise replays.ReplayMismatch(f"decision {i}: it was seat {state.current_player()}'s turn")
        state.apply(state.game.parse_action(d["action"]))
    return state, state.current_player(), state.legal_actions()


def seat_clock(header: dict[str, Any], seat: int) -> TimeControl:
    """The clock `seat` played on: its own when the replay's seat entry has one (`run_match(seat_time_controls=)`),
    else the match's."""
    own = next((s.get("time_control") for s in header["seats"] if s["seat"] == seat), None)
    return TimeControl(**{k: v for k, v in (own or header.get("time_control", {})).items()
                          if k in TimeControl.__dataclass_fields__})


def ask(replay: dict[str, Any], decision: int, bot: str | Path, *, sandbox: bool = True) -> AskResult:
    """Send the request of `decision` to the bot in folder `bot`; never raises because of the bot."""
    state, seat, legal = position(replay, decision)
    header = replay["header"]
    tc = seat_clock(header, seat)
    encoder = Encoder(state.game)
    names = [s["name"] for s in sorted(header["seats"], key=lambda s: s["seat"])]
    key = bytes.fromhex(header["bot_seed_key"]) if header.get("bot_seed_key") else None
    start = encoder.start(seat, names, header["seed"], tc, key)
    request = encoder.decide(decision, seat, state.observation(seat), legal, tc.decision_ms, tc.bank_ms)
    texts = [str(a) for a in legal]
    result = AskResult(decision, seat, texts, replay["decisions"][decision]["action"], None, "", "", 0.0)
    manifest = load_manifest(bot)
    process = launch(Path(bot).resolve(), list(manifest.command), manifest.sandbox_runtime,
                     SandboxLimits(), sandbox=sandbox)
    client = None
    try:
        deadline = time.monotonic() + START_WAIT_S
        while not process.wait_for_socket(0.05):
            if process.poll() is not None or time.monotonic() > deadline:
                result.error = f"the bot did not open its socket ({process.exit_reason() or 'no answer'})"
                break
        else:
            client = BotClient(process.server_address)
        if client is None:
            return result
        client.call("StartMatch", start, backstop_s(tc.startup_ms / 1000), wait_for_ready=True)
        if process.output is not None:
            process.output.mark(decision)
        t0 = time.perf_counter()
        response = client.call("Decide", request, backstop_s((tc.decision_ms + tc.bank_ms) / 1000))
        result.ms = (time.perf_counter() - t0) * 1000
        result.annotation = clean_annotation(response.annotation)
        result.answer = texts[chosen_index(response, legal)]
    except (CallFailed, BadAnswer) as exc:
        result.error = f"{exc.kind}: {exc.message}"
    finally:
        if client is not None:
            client.close()
        process.close()
        result.output = process.output.excerpt(4000) if process.output is not None else process.output_tail(4000)
    return result
