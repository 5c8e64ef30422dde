"""The "Play" form (`/play/`): a signed-in person sits down at a table against bots (an unrated match of kind
human, `matches.services.create_human_match`), then plays it on its match page (`web.play`); or, when other
seats are for people, sets a table (`tables.services.create`) and is sent to its page with its invitation link.

The opponents offered are the bots open to people (`Bot.people_may_play`) with a playing version that are on an
active ladder of the game, the built-in levels included, and "a person"; the form (and `create_human_match`)
refuses any other. The API (`api.tables`) takes the same form. The people's seats play on the clock picked, the
bots on their ladder's clock (`Match.seat_time_controls`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import throttles
from arena import games
from botregistry.models import Bot
from matches.models import Match
from matches.services import CannotSeat, create_human_match
from tables import services as tables

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
        bots = list(open_to_people())
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
        allowed = {b.pk: b for b in open_to_people(game)}
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


def remember_key(request: Any, new: tables.NewTable) -> None:
    """The invitation's key kept in its creator's session only (the table stores its SHA-256), so their table's
    page can show them the link again."""
    keys = dict(request.session.get("table_keys", {}))
    keys[str(new.table.pk)] = new.key
    request.session["table_keys"] = dict(list(keys.items())[-20:])  # the last 20 tables' links


def play_new(request):
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={request.path}")
    # "Play again" (a finished human match's page) and "Play this bot" (a bot's page) fill in the form
    form = PlayForm(request.POST or None, initial={k: request.GET[k] for k in ("game", "players", "opponent1")
                                                       if k in request.GET})
    if request.method == "POST" and form.is_valid():
        if (wait := throttles.throttled(request, throttles.TABLES)) is not None:
            form.add_error(None, _("You sat down too often: try again in %(s)d s.") % {"s": int(wait) + 1})
            return render(request, "web/play_new.html", {"form": form}, status=429)
        try:
            made = sit_down(request.user, form.cleaned_data)
        except (CannotSeat, tables.TableRefused) as exc:
            form.add_error(None, str(exc))
        else:
            if isinstance(made, tables.NewTable):
                remember_key(request, made)
                return redirect("web:table", table_id=made.table.pk)
            return redirect("web:match", match_id=made.pk)
    return render(request, "web/play_new.html", {"form": form}, status=400 if form.errors else 200)
