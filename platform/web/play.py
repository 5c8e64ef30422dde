"""Playing a seat from the browser: the web side of `matches.people`.

`GET /matches/<id>/play/?seat=N` answers the decision now asked of seat N (JSON: decision, seat, observation,
legal actions with their texts and kinds, clock, deadline), to the signed-in user who plays the seat only; 204
when the seat is asked nothing now. `POST /matches/<id>/play/` with {"seat": N, "decision": i, "action": text}
(JSON, or a form) answers it. Every other request gets a clear 4xx and changes nothing: anonymous 401, another
user 403, no such seat 400, out of turn or a stale or already answered decision 409, an action outside the legal
list 400.
"""

from __future__ import annotations

import json
from typing import Any

import redis
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from matches import live, people
from matches.models import Match


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
            now = people.current(match.pk, seat, conn)
            if now is None:
                return HttpResponse(status=204)
            if now.pop("user") != request.user.pk:
                return _error(403, _("this seat is not yours"))
            resp = JsonResponse(now)
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
