"""The "Play" page (`/play/`): a signed-in person fills in `tables.forms.PlayForm` and sits down at a table against
bots (an unrated match of kind human), then plays it on its match page (`web.play`); or, when other seats are for
people, sets a table (`tables.services.create`) and is sent to its page with its invitation link (`web.tables`).
The API takes the same form (`api.tables`).
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import throttles
from matches.services import CannotSeat
from tables import services as tables
from tables.forms import PlayForm, sit_down


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
                # the invitation's key only in the address's fragment, which no browser sends to a server: the
                # table's page shows it from there (the table stores its SHA-256 alone)
                return redirect(reverse("web:table", args=[made.table.pk]) + f"#invite={made.key}")
            return redirect("web:match", match_id=made.pk)
    return render(request, "web/play_new.html", {"form": form}, status=400 if form.errors else 200)
