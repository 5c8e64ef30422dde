"""`arena replay verify FILE`: re-simulate a replay from its seed and actions, failing loudly on any difference.
`arena replay show FILE [--seat N]`: print the game turn by turn, from one seat's view or omniscient."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

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
    s.set_defaults(func=run_show)


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


def show_lines(replay: dict[str, Any], seat: int | None = None) -> list[str]:
    """The replay as text: header, every decision with its time, fault and events, and the result. From a seat's
    view (`seat`), that seat's observation is printed before each of its decisions (what its bot saw) and at the
    end (before each decision only what changed since its previous one); omniscient, the full position is
    printed at the start and the end."""
    h = replay["header"]
    names = {s["seat"]: s["name"] for s in h["seats"]}
    frames = replays.frames(replay, seat)
    view = "omniscient view" if seat is None else f"seat {seat}'s view ({names.get(seat, '?')})"
    lines = [f"{h['game']} {_compact(h['params'])} seed {h['seed']} engine {h['engine_version']} — {view}",
             "seats: " + ", ".join(f"{s['seat']} {s['name']}" for s in h["seats"])]
    lines.append("start:")
    lines += _observation_lines(frames[0]["observation"])
    seen = frames[0]["observation"]
    for prev, frame in zip(frames, frames[1:]):
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
        lines += [f"        {_event_text(e)}" for e in frame["events"]]
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
        lines = show_lines(replay, args.seat)
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
