"""Playing a seat from the browser: the web side of `matches.people`.

`GET /matches/<id>/play/?seat=N` answers the decision now asked of seat N (JSON: decision, seat, observation,
legal actions with their texts, kinds and words for the person: `in_words`; clock, deadline), to the signed-in user who plays the seat only; 204
when the seat is asked nothing now, 410 once its person resigned. `POST /matches/<id>/play/` with {"seat": N, "decision": i, "action": text}
(JSON, or a form) answers it. Every other request gets a clear 4xx and changes nothing: anonymous 401, another
user 403, no such seat 400, out of turn or a stale or already answered decision 409, an action outside the legal
list 400.

`POST /matches/<id>/play/resign/` with {"seat": N} (JSON, or a form; CSRF as every POST) resigns the seat for the
user who plays it (arena.match.person: the seat is out, ranked last, the referee's substitute moves finish its
game; the match goes on for the others): anonymous 401, no such seat 400, another's seat 403, a match over or a
seat already resigned 409.
"""

from __future__ import annotations

import json
from typing import Any

import redis
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from arena import narration
from matches import live, people
from matches.models import Match


def in_words(turn: dict[str, Any], game: str, language: str) -> dict[str, Any]:
    """`turn` (matches.people.turn, without its user) with each legal action in words for the person, in
    `language`: its `label`, `group` (the panel's heading), `target` (the thing on the board it is about, or
    None) and `ends_turn` (arena.narration.action_words)."""
    observation = turn.get("observation") or {}
    legal = [{**a, **narration.action_words(game, a["text"], observation, language)} for a in turn.get("legal") or []]
    return {k: v for k, v in turn.items() if k != "user"} | {"legal": legal}


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _seat(raw: Any, match: Match) -> int | None:
    """The seat named by `raw` if the match has it."""
    if isinstance(raw, str) and raw.isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool):
        return None
    players = int((match.params or {}).get("players") or match.participants.count())
    return raw if 0 <= raw < players else None


def _body(request) -> dict[str, Any] | None:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            return None
        return data if isinstance(data, dict) else None
    data = {k: request.POST.get(k) for k in ("seat", "decision", "action")}
    if isinstance(data["decision"], str) and data["decision"].isdigit():
        data["decision"] = int(data["decision"])
    return data


@require_http_methods(["GET", "POST"])
def play(request, match_id: int):
    if not request.user.is_authenticated:
        return _error(401, _("sign in to play"))
    match = get_object_or_404(Match, pk=match_id)
    data = request.GET if request.method == "GET" else _body(request)
    if data is None:
        return _error(400, _("the answer must be a JSON object: {\"seat\": …, \"decision\": …, \"action\": …}"))
    seat = _seat(data.get("seat"), match)
    if seat is None:
        return _error(400, _("no such seat in this match"))
    if match.done:
        return _error(409, _("this match is over"))
    conn = live.client()
    try:
        if request.method == "GET":
            if conn.exists(people.resign_key(match.pk, seat)):  # that seat is out: nothing more is asked of it
                if (match.people or {}).get(str(seat)) != request.user.pk:
                    return _error(403, _("this seat is not yours"))
                return _error(410, _("you resigned: the other seats play on"))
            now = people.current(match.pk, seat, conn)
            if now is None:
                return HttpResponse(status=204)
            if now.pop("user") != request.user.pk:
                return _error(403, _("this seat is not yours"))
            resp = JsonResponse(in_words(now, match.game, get_language() or "en"))
            resp["Cache-Control"] = "no-store"
            return resp
        index = people.accept(match.pk, seat, request.user.pk, data.get("decision"), data.get("action"), conn, {
            "not_asked": _("this seat is not asked to decide now"),
            "not_yours": _("this seat is not yours"),
            "stale": _("this is not the current decision (it was already made or timed out)"),
            "illegal": _("this action is not one of the legal actions"),
            "answered": _("this decision was already answered"),
        })
        return JsonResponse({"decision": data.get("decision"), "index": index})
    except people.Refused as exc:
        return _error(exc.status, exc.message)
    except (redis.RedisError, OSError):
        return _error(503, _("the game cannot be reached just now: try again"))
    finally:
        conn.close()


@require_http_methods(["POST"])
def resign(request, match_id: int):
    if not request.user.is_authenticated:
        return _error(401, _("sign in to play"))
    match = get_object_or_404(Match, pk=match_id)
    data = _body(request)
    seat = _seat(data.get("seat"), match) if data is not None else None
    if seat is None:
        return _error(400, _("no such seat in this match"))
    if (match.people or {}).get(str(seat)) != request.user.pk:
        return _error(403, _("this seat is not yours"))
    if match.done:
        return _error(409, _("this match is over"))
    conn = live.client()
    try:
        if not people.resign(match.pk, seat, conn):
            return _error(409, _("you have already resigned"))
    except (redis.RedisError, OSError):
        return _error(503, _("the game cannot be reached just now: try again"))
    finally:
        conn.close()
    return JsonResponse({"seat": seat, "resigned": True})
