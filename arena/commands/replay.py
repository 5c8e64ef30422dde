"""`arena replay verify FILE`: re-simulate a replay from its seed and actions, failing loudly on any difference.
`arena replay show FILE [--seat N] [--turns A-B] [--logs FILE]`: print the game turn by turn, from one seat's view
or omniscient, only turns A to B if asked, with each bot's annotation beside its turns (from the match's bot logs,
`match.logs.json.gz` beside the replay unless --logs names them).
`arena replay ask FILE --decision D --bot DIR [--no-sandbox] [--json]`: rebuild the DecideRequest the deciding seat
got at decision D (turn D + 1) and send it to a bot folder (any language, sandboxed unless --no-sandbox); print its
answer, its annotation and what it printed (arena.match.ask)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena import botlogs
from arena import replay as replays


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("replay", help="verify or show a replay file")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    v = actions.add_parser("verify", help="re-simulate a replay; exit 1 on any difference")
    v.add_argument("file")
    v.set_defaults(func=run_verify)
    s = actions.add_parser("show", help="print a replay turn by turn")
    s.add_argument("file")
    s.add_argument("--seat", type=int, help="show the game from this seat's view (default: omniscient)")
    s.add_argument("--turns", metavar="A-B", help="only turns A to B (turn t is decision t - 1; 'A-' to the end)")
    s.add_argument("--logs", metavar="FILE", help="the bot logs with the annotations (default: beside the replay)")
    s.set_defaults(func=run_show)
    a = actions.add_parser("ask", help="send the position of one decision to a bot and print its answer")
    a.add_argument("file")
    a.add_argument("--decision", type=int, required=True, help="the decision's index (turn - 1)")
    a.add_argument("--bot", required=True, metavar="DIR", help="a bot folder with bot.toml")
    a.add_argument("--no-sandbox", action="store_true", help="run the bot as a plain process (your own bots only)")
    a.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    a.set_defaults(func=run_ask)


def run_verify(args: argparse.Namespace) -> int:
    try:
        replay = replays.load(args.file)
        replays.verify(replay)
    except replays.ReplayMismatch as exc:
        print(f"MISMATCH: {args.file}: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"arena replay verify: {exc}", file=sys.stderr)
        return 2
    h = replay["header"]
    print(f"ok: {args.file}: {h['game']} seed {h['seed']}, {len(replay['decisions'])} decisions re-simulated, "
          f"events and result identical")
    return 0


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _action_text(action: str | None) -> str:
    return "(hidden from this seat)" if action is None else action


def _event_text(event: dict[str, Any]) -> str:
    rest = " ".join(f"{k}={_compact(v)}" for k, v in event.items() if k != "type")
    return f"{event.get('type', '?')} {rest}".strip()


def _observation_lines(observation: dict[str, Any], indent: str = "      ") -> list[str]:
    return [f"{indent}{key}: {_compact(value)}" for key, value in observation.items()]


def parse_turns(text: str | None, decisions: int) -> tuple[int, int]:
    """`A-B`, `A-` or `A` as an inclusive range of turns (1-based) within the game's `decisions` turns."""
    if not text:
        return 1, decisions
    first, dash, last = text.partition("-")
    try:
        a = int(first)
        b = int(last) if last else (decisions if dash else a)
    except ValueError:
        raise ValueError(f"--turns {text!r}: expected A-B, A- or A (turn numbers from 1)") from None
    if not 1 <= a <= b:
        raise ValueError(f"--turns {text!r}: turns count from 1 and A must not be after B")
    return a, min(b, decisions)


def annotations_of(logs: dict[str, Any]) -> dict[int, str]:
    """decision -> the annotation its bot attached (arena.botlogs' document)."""
    return {d["decision"]: d["annotation"] for seat in logs.get("seats", []) for d in seat.get("decisions", [])
            if d.get("annotation")}


def show_lines(replay: dict[str, Any], seat: int | None = None, turns: tuple[int, int] | None = None,
               annotations: dict[int, str] | None = None) -> list[str]:
    """The replay as text: header, every decision with its time, fault and events, and the result. From a seat's
    view (`seat`), that seat's observation is printed before each of its decisions (what its bot saw) and at the
    end (before each decision only what changed since its previous one); omniscient, the full position is
    printed at the start and the end. `turns` (first, last; 1-based, turn t = decision t - 1) limits the
    decisions shown (the start is shown when the range starts at turn 1, the end and result when it reaches the
    last turn); `annotations` (decision -> text) are printed beside the decisions whose bot wrote them (from a
    seat's view, only that seat's own)."""
    total = len(replay["decisions"])
    first, last = turns or (1, total)
    annotations = annotations or {}
    h = replay["header"]
    names = {s["seat"]: s["name"] for s in h["seats"]}
    frames = replays.frames(replay, seat)
    view = "omniscient view" if seat is None else f"seat {seat}'s view ({names.get(seat, '?')})"
    lines = [f"{h['game']} {_compact(h['params'])} seed {h['seed']} engine {h['engine_version']} — {view}",
             "seats: " + ", ".join(f"{s['seat']} {s['name']}" for s in h["seats"])]
    if first == 1:
        lines.append("start:")
        lines += _observation_lines(frames[0]["observation"])
    seen = frames[0]["observation"]
    for prev, frame in zip(frames, frames[1:]):
        if not first <= frame["index"] <= last:
            if seat is not None and frame["seat"] == seat:
                seen = prev["observation"]
            continue
        if seat is not None and frame["seat"] == seat and prev["index"] > 0:
            changed = {k: v for k, v in prev["observation"].items() if seen.get(k) != v}
            lines.append(f"    seat {seat} sees (what changed since it last looked):")
            lines += _observation_lines(changed, "        ")
            seen = prev["observation"]
        fault = frame["fault"]
        note = f"  FAULT {fault['kind']}{': ' + fault['message'] if fault['message'] else ''}" if fault else ""
        if frame.get("substitute"):
            note += "  (played by the referee: " + ("the seat faulted)" if fault else "the seat is disqualified)")
        clock = "forced: the only legal action" if frame.get("forced") else f"{frame['ms'] or 0:.1f} ms"
        lines.append(f"{frame['index']:5d}. seat {frame['seat']} ({names.get(frame['seat'], '?')}): "
                     f"{_action_text(frame['action'])}  [{clock}]{note}")
        annotation = annotations.get(frame["index"] - 1)
        if annotation and (seat is None or frame["seat"] == seat):
            lines.append(f"        note: {annotation}")
        lines += [f"        {_event_text(e)}" for e in frame["events"]]
    if last < total:
        return lines
    lines.append("end:")
    lines += _observation_lines(frames[-1]["observation"])
    result = replay.get("result")
    if result:
        lines.append("result:")
        for s in sorted(result["seats"], key=lambda s: (s["rank"], s["seat"])):
            dq = " disqualified" if s["disqualified"] else ""
            lines.append(f"  rank {s['rank']}: seat {s['seat']} {s['name']} score {s['score']:g}, "
                         f"{len(s['faults'])} faults{dq}")
    return lines


def run_show(args: argparse.Namespace) -> int:
    try:
        replay = replays.load(args.file)
        players = len(replay["header"]["seats"])
        if args.seat is not None and not 0 <= args.seat < players:
            print(f"arena replay show: no seat {args.seat}; seats are 0..{players - 1}", file=sys.stderr)
            return 2
        turns = parse_turns(args.turns, len(replay["decisions"]))
        logs_file = Path(args.logs) if args.logs else botlogs.logs_path(args.file)
        annotations = annotations_of(botlogs.load(logs_file)) if logs_file.exists() else {}
        if args.logs and not logs_file.exists():
            raise ValueError(f"no bot logs at {logs_file}")
        lines = show_lines(replay, args.seat, turns, annotations)
    except replays.ReplayMismatch as exc:
        print(f"MISMATCH: {args.file}: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"arena replay show: {exc}", file=sys.stderr)
        return 2
    try:
        print("\n".join(lines))
    except BrokenPipeError:  # `arena replay show F | head`
        pass
    return 0


def run_ask(args: argparse.Namespace) -> int:
    from arena.match.ask import ask  # the sandbox and gRPC: only for this action
    from arena.sandbox import RuntimeMissing, SandboxUnavailable

    try:
        replay = replays.load(args.file)
        result = ask(replay, args.decision, args.bot, sandbox=not args.no_sandbox)
    except replays.ReplayMismatch as exc:
        print(f"MISMATCH: {args.file}: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError, SandboxUnavailable, RuntimeMissing) as exc:
        print(f"arena replay ask: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(vars(result)))
    else:
        print(f"decision {result.decision} (turn {result.decision + 1}), seat {result.seat}, "
              f"{len(result.legal)} legal actions")
        print(f"recorded: {result.recorded}")
        print(f"answer:   {result.answer if result.answer is not None else '(none)'}"
              + (f"  [{result.ms:.1f} ms]" if result.answer is not None else ""))
        if result.error:
            print(f"fault:    {result.error}")
        print(f"note:     {result.annotation}")
        print("output:" + ("\n" + result.output.rstrip() if result.output.strip() else " (nothing)"))
    return 0 if result.answer is not None else 1
