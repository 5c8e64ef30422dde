"""A replay's story for spectators: each decision in words, each seat's score after every frame with the
cause of each change, chapters (years, rounds) to skip by, and the moments to mark on a timeline (scoring,
faults). Built from `arena.replay.frames` of one view, so it never says more than that view shows.

Each game with a narrator has a module `arena.games.<game>.narrate` with four pure functions:
`describe(actor, action, events, names, before=None) -> str` (the decision, without the actor's name),
`world_events(events, names) -> list[str]` (what changed for everyone), `score_parts(observation) ->
list[dict]` (per seat: the game's scoring parts and `total`) and `chapter(observation) -> str`, plus
`scoring_moment(events) -> str | None`. A game without one gets the bare action texts.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from arena import reasons
from arena.games.speech import LOCALES, N_, _, listed, speaking
from arena.games.telling import seat_name


def glossary(game: str) -> dict[str, Any]:
    """The names the viewer shows instead of a game's codes (its narrator's `glossary()`; none without one)."""
    mod = narrator(game)
    return mod.glossary() if mod and hasattr(mod, "glossary") else {}


def narrator(game: str) -> ModuleType | None:
    """The game's narrator module, or None when it has none (or the name is no registered game)."""
    from arena import games

    if game not in games.names():
        return None
    try:
        return importlib.import_module(f"arena.games.{game}.narrate")
    except ModuleNotFoundError:
        return None


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


#: Why the referee played a seat's move, by the fault of that decision (none: the seat was out already).
_SUBSTITUTED_BECAUSE = {"timeout": N_("timed out"), "crash": N_("crashed"), "illegal": N_("its answer was illegal"),
                        "malformed": N_("its answer was malformed"), "disqualified": N_("disqualified"),
                        "resigned": N_("resigned")}


def story(game: str, frames: list[dict[str, Any]], names: list[str], language: str = "en") -> dict[str, Any]:
    """`{"turns", "scores", "chapters", "parts", "series", "part_names", "glossary"}`: `scores[i]` each score row's
    total after frame i, one row per seat (a game may add rows: Minos' solo opponent), `series` the rows' names.

    `turns[i]` describes frame i (turn 0 is the start): `{"text", "lines", "chapter", "scoring", "fault",
    "substitute", "deltas"}` where `text` is the decision in words with the actor's name first, `lines` what happened
    around it, `deltas` `[{"seat", "delta", "cause"}]` the score changes it caused (cause: the scoring parts
    that moved, e.g. `farms +4, regions +2`), `scoring` the name of a scoring moment or None, `fault` the
    fault kind or None, `substitute` whether the referee played the move for the seat (arena.replay).
    `parts` is each seat's final score by part (the end screen's breakdown). Told in `language` (a code of
    `arena.games.speech.LOCALES`; the games' terms as their rule texts name them)."""
    with speaking(language):
        return _story(game, frames, names)


def _part_name(labels: dict[str, str], key: str) -> str:
    return _(labels[key]) if key in labels else key.replace("_", " ")


def _turn(mod: ModuleType | None, frame: dict[str, Any], before: dict[str, Any] | None,
          prev_parts: list[dict[str, float]] | None, names: list[str]) -> tuple[dict[str, Any], list[dict[str, float]]]:
    """Frame `frame` told (`story`'s `turns[i]`) and each seat's score parts after it; `before` is the previous
    frame's observation (None: `frame` is the start), `prev_parts` its parts."""
    obs = frame.get("observation") or {}
    parts = mod.score_parts(obs) if mod else []
    chapter = mod.chapter(obs) if mod else ""
    events = frame.get("events") or []
    if before is None:
        return {"text": _("The game is set up."), "lines": [], "chapter": chapter, "scoring": None,
                "fault": None, "fault_name": None, "substitute": False, "deltas": []}, parts
    actor, action = frame.get("seat"), frame.get("action")
    if mod:
        text = mod.describe(actor, action, events, names, before=before)
        lines = mod.world_events(events, names)
    else:
        text = _("makes a hidden choice") if action is None else _("plays %(action)s") % {"action": action}
        lines = []
    fault = frame.get("fault")
    substitute = bool(frame.get("substitute"))
    if fault:
        lines.append(_("Fault (%(kind)s)") % {"kind": reasons.kind(fault.get("kind") or "")}
                     + (": " + reasons.retell(fault["message"]) if fault.get("message") else "")
                     + ("" if substitute else
                        _(" — the referee substituted a random legal move (the bot did not choose it)")))
    if substitute:
        why = _(_SUBSTITUTED_BECAUSE.get(fault.get("kind", "") if fault else "", "disqualified"))
        lines.append(_("Substitute move. The referee played this for %(name)s, %(why)s: a random legal "
                       "move, not the bot's choice.") % {"name": seat_name(names, actor), "why": why})
    deltas = []
    labels = getattr(mod, "PART_NAMES", {})
    for seat, (old, new) in enumerate(zip(prev_parts or [], parts)):
        delta = new.get("total", 0.0) - old.get("total", 0.0)
        if not delta:
            continue
        moved = [f"{_part_name(labels, k)} {'+' if new.get(k, 0) >= old.get(k, 0) else ''}"
                 f"{_fmt(new.get(k, 0) - old.get(k, 0))}"
                 for k in new if k != "total" and new.get(k, 0) != old.get(k, 0)]
        deltas.append({"seat": seat, "delta": delta, "cause": listed(moved)})
    return {"text": _("%(name)s %(action)s.") % {"name": seat_name(names, actor), "action": text}, "lines": lines,
            "chapter": chapter, "scoring": mod.scoring_moment(events) if mod else None,
            "fault": fault.get("kind") if fault else None,
            "fault_name": reasons.kind(fault.get("kind") or "") if fault else None,
            "substitute": substitute, "deltas": deltas}, parts


def live_turn(game: str, frame: dict[str, Any], before: dict[str, Any] | None,
              prev_parts: list[dict[str, float]] | None, names: list[str]
              ) -> tuple[dict[str, dict[str, Any]], list[dict[str, float]]]:
    """One frame of a match being played, told in every language of `speech.LOCALES` (`{language: turn}`, a
    turn as in `story`), and the score parts after it (the next call's `prev_parts`). The frame must be one
    view's, as `arena.replay.frames` makes them (a decision hidden from that view with `action` None): the live
    story says no more than the view's replay will."""
    mod = narrator(game)
    told: dict[str, dict[str, Any]] = {}
    parts: list[dict[str, float]] = []
    for language in LOCALES:
        with speaking(language):
            told[language], parts = _turn(mod, frame, before, prev_parts, names)
    return told, parts


def action_words(game: str, action: str, observation: dict[str, Any] | None = None,
                 language: str = "en") -> dict[str, Any]:
    """A legal action as a person choosing it reads it: `{"label", "group", "target", "ends_turn"}` — `label`
    the action in words, `group` the name of its kind (the play panel's headings), `target` the thing on the
    board it is about (`{"kind": "place"|"card"|"die"|"region"|"offer", "id": str}`) or None, `ends_turn`
    whether choosing it ends the person's turn (the page asks to confirm). From the game's narrator's
    `action_label`, `action_group`, `action_target`, `ENDS_TURN`; a game without them gets the action's text."""
    mod = narrator(game)
    with speaking(language):
        label = mod.action_label(action, observation or {}) if mod and hasattr(mod, "action_label") else action
        group = mod.action_group(action) if mod and hasattr(mod, "action_group") else action.split(" ", 1)[0]
        target = mod.action_target(action, observation or {}) if mod and hasattr(mod, "action_target") else None
    ends = getattr(mod, "ends_turn", None)
    return {"label": label, "group": group, "target": target, "ends_turn": bool(ends(action)) if ends else False}


def _story(game: str, frames: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    mod = narrator(game)
    turns: list[dict[str, Any]] = []
    scores: list[list[float]] = []
    chapters: list[str] = []
    prev_parts: list[dict[str, float]] | None = None
    for i, frame in enumerate(frames):
        turn, parts = _turn(mod, frame, (frames[i - 1].get("observation") or {}) if i else None, prev_parts, names)
        scores.append([p.get("total", 0.0) for p in parts])
        chapters.append(turn["chapter"])
        turns.append(turn)
        prev_parts = parts
    labels = getattr(mod, "PART_NAMES", {}) if mod else {}
    first = frames[0].get("observation") or {} if frames else {}
    series = mod.series_names(names, first) if mod and hasattr(mod, "series_names") else list(names)
    return {"turns": turns, "scores": scores, "chapters": chapters, "parts": prev_parts or [], "series": series,
            "glossary": glossary(game),
            "part_names": {k: _part_name(labels, k) for p in (prev_parts or []) for k in p}}
