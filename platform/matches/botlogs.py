"""Who sees what of the bots' own logs of a match (arena.botlogs): what each bot printed, by decision, and its
debug annotations.

- A bot's owner and staff see its output and annotations, whole.
- Everyone sees the annotations of a bot whose owner made them public (`Bot.public_annotations`), never its output.
- Nobody else sees anything of it: a seat whose logs a viewer may not see is left out entirely.

Like the replay, logs are shown once every match played with the match's seed is over (`seed_is_public`, staff
always): a duplicate set's other rotations still play the same deal, and a bot's output may print its cards.
"""

from __future__ import annotations

from typing import Any

from arena import botlogs
from arena_site import objects
from botregistry.models import Bot
from matches.models import Match
from matches.seeds import deal_visible, is_staff


class LogsHidden(PermissionError):
    """The logs exist but are not shown yet (another match with the same seed is still to be played)."""


class NoLogs(LookupError):
    """The match has no bot logs (not finished, played before logs were kept, or failed)."""


def _owner_or_staff(user: Any, bot: Bot) -> bool:
    from botregistry.ownership import can_play  # a team bot's members count as its owner

    return is_staff(user) or can_play(user, bot)


def visible(match: Match, user: Any) -> dict[str, Any]:
    """The logs document with only what `user` may see: `{"seats": [...]}`, each seat as in arena.botlogs plus
    `"output_visible"` (false: annotations only). Raises NoLogs or LogsHidden."""
    name = match.logs_name
    if not objects.exists(name):
        raise NoLogs("this match has no bot logs" + ("" if match.done else " yet: it is not finished"))
    if not deal_visible(match, user):
        raise LogsHidden("the bots' logs are shown once every match played with this seed is over")
    participants = {p.seat: p for p in match.participants.select_related("bot")}
    with objects.opened(name) as f:
        doc = botlogs.load(f)  # type: ignore[arg-type]  # gzip reads a file object as well as a path
    seats = []
    for seat in doc["seats"]:
        p = participants.get(seat["seat"])
        if p is None:
            continue
        if _owner_or_staff(user, p.bot):
            seats.append({**seat, "bot": p.bot_id, "output_visible": True})
        elif p.bot.public_annotations:
            seats.append({"seat": seat["seat"], "name": seat["name"], "bot": p.bot_id, "output_visible": False,
                          "decisions": [{"decision": d["decision"], "turn": d["turn"], "annotation": d["annotation"]}
                                        for d in seat["decisions"] if d.get("annotation")]})
    return {"match": match.pk, "seats": seats}


def seat_text(match: Match, user: Any, seat: int) -> tuple[str, str]:
    """(file name, text) of one seat's whole log, for its owner or staff. Raises NoLogs, LogsHidden, or
    PermissionError when `user` may not see that seat's output."""
    doc = visible(match, user)
    for entry in doc["seats"]:
        if entry["seat"] == seat and entry["output_visible"]:
            return f"match-{match.pk}-{botlogs.text_file_name(entry, first=1)}", botlogs.seat_text(entry)
    raise PermissionError("only the bot's owner (and staff) can download what it printed")
