"""The form of sitting down to play, shared by the /play/ page (`web.play_new`) and the API (`api.tables`): the
game, player count, the person's seat (or a random one), each other seat's opponent (a bot open to people, or
"a person" invited through a table's link) and the people's clock (`CLOCKS`; the bots keep their ladder's).
`sit_down` does what a valid form asks: a match against bots (`matches.services.create_human_match`) or a table
(`tables.services.create`).

The opponents offered are the bots open to people (`Bot.people_may_play`) with a playing version that are on an
active ladder of the game, the built-in levels included; the form (and the services) refuse any other.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from arena import games
from botregistry.models import Bot
from matches.models import Match
from matches.services import create_human_match

from . import services as tables

GAMES = [("thebes", "Thebes"), ("minos", "Minos")]
#: The clocks a person may pick: each decision's limit and the bank for the whole match (arena.match.TimeControl).
CLOCKS: dict[str, tuple[Any, dict[str, int]]] = {
    "30s": (gettext_lazy("30 s per decision, 2 min bank"), {"decision_ms": 30_000, "bank_ms": 120_000}),
    "2m": (gettext_lazy("2 min per decision, 10 min bank"), {"decision_ms": 120_000, "bank_ms": 600_000}),
}
MAX_SEATS = 4
PERSON = "person"  # an opponent's choice: a seat for someone invited through the table's link


def open_to_people(game: str | None = None) -> QuerySet[Bot]:
    """Bots a person may play: open to people, with a ready active version, on an active ladder (of `game`)."""
    qs = Bot.objects.filter(people_may_play=True, retired_at__isnull=True, active_version__status="ready",
                            ratings__ladder__active=True)
    if game:
        qs = qs.filter(game=game, ratings__ladder__game=game)
    return qs.select_related("owner", "active_version").distinct().order_by("-builtin", "game", "name")


class PlayForm(forms.Form):
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GAMES)
    players = forms.TypedChoiceField(label=gettext_lazy("Players"), coerce=int,
                                     choices=[(n, str(n)) for n in range(2, MAX_SEATS + 1)])
    seat = forms.ChoiceField(label=gettext_lazy("Your seat"), required=False,
                             choices=[("", gettext_lazy("Random"))] + [(str(s), str(s + 1)) for s in range(MAX_SEATS)])
    clock = forms.ChoiceField(label=gettext_lazy("Clock"), choices=[(k, v[0]) for k, v in CLOCKS.items()])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bots = self.bots_open = list(open_to_people())  # read once: the choices, and `clean`'s check
        choices = [("", "—"), (PERSON, _("A person you invite"))] + [
            (str(b.pk), f"{b.game.title()}: {b.name} ({b.owner.username})") for b in bots]
        for i in range(1, MAX_SEATS):
            self.fields[f"opponent{i}"] = forms.ChoiceField(
                label=_("Opponent %(n)d") % {"n": i}, choices=choices, required=False,
                help_text=_("the bots open to people on this game's ladders, or a person you invite with a link")
                if i == 1 else "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game, players = data.get("game"), data.get("players")
        if not game or not players:
            return data
        try:
            games.load(game, players=players)
        except (ValueError, TypeError):
            raise forms.ValidationError(
                _("%(game)s is not played by %(n)d players") % {"game": game, "n": players}) from None
        seat = data.get("seat")
        if seat not in ("", None) and int(seat) >= players:
            self.add_error("seat", _("a %(n)d-player table has seats 1 to %(n)d") % {"n": players})
        # the bots offered, of this game (open_to_people(game) would read them again; a bot's ratings are on its
        # own game's ladders, so this is the same list)
        allowed = {b.pk: b for b in self.bots_open if b.game == game}
        chosen: list[Bot | None] = []  # None: a person's seat
        for i in range(1, MAX_SEATS):
            raw = data.get(f"opponent{i}")
            if i < players:
                if raw == PERSON:
                    chosen.append(None)
                    continue
                bot = allowed.get(int(raw)) if raw and raw.isdigit() else None
                if bot is None:
                    self.add_error(f"opponent{i}", _("pick a %(game)s bot open to people") % {"game": game})
                else:
                    chosen.append(bot)
        data["bots"] = chosen
        return data


def sit_down(user: Any, data: dict[str, Any]) -> Match | tables.NewTable:
    """What a valid `PlayForm` asks, for the page and the API alike: a match against bots, or a table when a seat
    is for a person. Raises `CannotSeat` or `tables.TableRefused`."""
    seat = int(data["seat"]) if data["seat"] not in ("", None) else None
    clock = dict(CLOCKS[data["clock"]][1])
    if any(b is None for b in data["bots"]):
        return tables.create(user=user, game=data["game"], players=data["players"], seat=seat, clock=clock,
                             others=[b.active_version if b is not None else None for b in data["bots"]])
    return create_human_match(user=user, game=data["game"], players=data["players"], seat=seat,
                              opponents=[b.active_version for b in data["bots"]], clock=clock)


