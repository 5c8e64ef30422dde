"""The competition pages: every competition one may see (`/competitions/`), a new one (`/competitions/new/`,
organizers), one competition (`/competitions/<slug>/`: dates, rules, its ladder, entries, the entry form and
the organizers' actions), its archive (`/competitions/<slug>/archive/`: result, cross-table, the final's
games, the winning versions) and the result's downloads (`results.csv`, `results.json`).

Plain forms posted to the page they are on; each action is a function of `competitions.services`, the same the
REST API calls. A private competition is a 404 to whoever may not see it (`competitions.visibility`)."""

from __future__ import annotations

import datetime as dt
import json

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from arena import games as game_registry
from botregistry.ownership import playable_by
from competitions import archive, rules_text, services
from competitions.models import Competition, Entry
from competitions.visibility import organizes, visible_competitions, with_key
from ladders.models import Rating


def _get(request, slug: str, *, key: str = "") -> Competition:
    """The competition if `request.user` may see it (or, for its page and entering, holds its link's `key`)."""
    c = visible_competitions(request.user).select_related("ladder", "final").filter(slug=slug[:64]).first()
    if c is None and key:
        c = with_key(key).select_related("ladder", "final").filter(slug=slug[:64]).first()
    if c is None:
        raise Http404("no such competition")
    return c


def competition_list(request):
    rows = list(visible_competitions(request.user).order_by("-deadline", "-id")[:200])
    return render(request, "web/competitions.html", {"competitions": rows,
                                                     "can_create": services.is_organizer(request.user)})


class CompetitionForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=128)
    slug = forms.SlugField(label=gettext_lazy("Address"), max_length=56,
                           help_text=gettext_lazy("Letters, digits and dashes: /competitions/<address>/"))
    description = forms.CharField(label=gettext_lazy("Description"), max_length=500, required=False)
    rules = forms.CharField(label=gettext_lazy("Rules (Markdown)"), widget=forms.Textarea(attrs={"rows": 8}),
                            required=False, max_length=20000)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    players = forms.IntegerField(label=gettext_lazy("Players per table"), min_value=2, max_value=4, initial=2)
    decision_ms = forms.IntegerField(label=gettext_lazy("Time per decision (ms)"), min_value=50, max_value=60000,
                                     initial=1000)
    entries_open_at = forms.DateTimeField(label=gettext_lazy("Entries open (UTC)"),
                                          widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    deadline = forms.DateTimeField(label=gettext_lazy("Submission deadline (UTC)"),
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    final_at = forms.DateTimeField(label=gettext_lazy("Final starts (UTC)"),
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    results_at = forms.DateTimeField(label=gettext_lazy("Results published (UTC; empty: when you publish them)"),
                                     required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    policy = forms.ChoiceField(label=gettext_lazy("Who may enter"), choices=Competition.Policy.choices)
    entries_per_entrant = forms.IntegerField(label=gettext_lazy("Entries per person or team"), min_value=1,
                                             max_value=10, initial=1)
    final_format = forms.ChoiceField(label=gettext_lazy("Final format"), choices=Competition.FinalFormat.choices)
    final_games_per_pairing = forms.IntegerField(label=gettext_lazy("Final games per pairing"), min_value=1,
                                                 max_value=10, initial=1)
    final_duplicate = forms.BooleanField(label=gettext_lazy("Duplicate sets in the final"), required=False)
    private = forms.BooleanField(label=gettext_lazy("Private (only organizers and entrants see it)"),
                                 required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [(g, g.capitalize()) for g in game_registry.names()]


def _utc(value: dt.datetime | None) -> dt.datetime | None:
    """The form's times are UTC (the page says so), whatever the server's zone."""
    if value is None:
        return None
    return value.replace(tzinfo=dt.UTC) if timezone.is_naive(value) else value.astimezone(dt.UTC)


def competition_new(request):
    if not services.is_organizer(request.user):
        if not request.user.is_authenticated:
            return redirect(f"{reverse('web:login')}?next={request.path}")
        return render(request, "web/competition_new.html", {"refused": True}, status=403)
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        for k in ("entries_open_at", "deadline", "final_at", "results_at"):
            data[k] = _utc(data[k])
        try:
            c = services.create(request.user, **data)
        except services.Refused as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, _("Competition created."))
            return redirect("web:competition", slug=c.slug)
    return render(request, "web/competition_new.html", {"form": form}, status=400 if form.errors else 200)


def competition(request, slug: str):
    c = _get(request, slug, key=(request.POST.get("key") or request.GET.get("key") or "")[:200])
    if request.method == "POST":
        return _action(request, c)
    is_org = organizes(request.user, c)
    entries = list(c.entries.select_related("bot", "bot__owner", "entrant_team", "entrant_user", "locked_version"))
    board = list(Rating.objects.filter(ladder_id=c.ladder_pk).select_related("bot").order_by("-rating", "id"))
    mine = []
    if request.user.is_authenticated and c.phase() == Competition.Phase.OPEN:
        entered = {e.bot_id for e in entries}
        mine = [b for b in playable_by(request.user).filter(game=c.game, retired_at__isnull=True, builtin=False)
                if b.pk not in entered]
    response = render(request, "web/competition.html", {
        "c": c, "phase": c.phase(), "phase_label": c.phase_label, "rules_html": rules_text.render(c.rules), "entries": entries, "board": board,
        "is_org": is_org, "my_bots": mine, "key": request.GET.get("key", "")[:200],
        "new_key": request.session.pop(f"competition-key-{c.pk}", None) if is_org else None,
        "results": services.results_visible(c, request.user), "tie_break": archive.TIE_BREAK})
    if is_org or request.GET.get("key"):
        response["Cache-Control"] = "no-store"  # an invitation key on the page or in its address
    return response


def _action(request, c: Competition):
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={request.path}")
    action = request.POST.get("action", "")
    try:
        if action == "enter":
            bot = playable_by(request.user).filter(pk=_int(request.POST.get("bot"))).first()
            if bot is None:
                raise services.Refused(_("choose one of your bots"), 400)
            services.enter(c, request.user, bot, key=request.POST.get("key", "")[:200])
            messages.success(request, _("%(bot)s entered.") % {"bot": bot.name})
        elif action == "withdraw":
            services.withdraw(_entry(c, request), request.user)
            messages.success(request, _("Entry withdrawn."))
        elif action == "disqualify":
            services.disqualify(_entry(c, request), request.user, request.POST.get("reason", ""))
            messages.success(request, _("Entry disqualified."))
        elif action == "invite-link":
            request.session[f"competition-key-{c.pk}"] = services.new_invite_link(c, request.user)
            messages.success(request, _("New invitation link made: the old one no longer works."))
        elif action == "revoke-link":
            services.revoke_invite_link(c, request.user)
            messages.success(request, _("Invitation link revoked."))
        elif action == "publish":
            services.publish(c, request.user)
            messages.success(request, _("Results published."))
        elif action == "make-public":
            services.update(c, request.user, private=False)
            messages.success(request, _("The competition is public now."))
        else:
            raise services.Refused(_("unknown action"), 400)
    except services.Refused as exc:
        messages.error(request, str(exc))
        return redirect(reverse("web:competition", kwargs={"slug": c.slug}))
    return redirect("web:competition", slug=c.slug)


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return 0


def _entry(c: Competition, request) -> Entry:
    entry = c.entries.select_related("bot", "competition").filter(pk=_int(request.POST.get("entry"))).first()
    if entry is None:
        raise services.Refused(_("no such entry"), 404)
    return entry


def competition_archive(request, slug: str):
    c = _get(request, slug)
    if not services.results_visible(c, request.user):
        raise Http404("no results yet")
    header, rows, games = archive.cross_table(c)
    cross = [{"name": header[i], "cells": row} for i, row in enumerate(rows)]
    winners = [r for r in (c.result or []) if r.get("rank") == 1]
    return render(request, "web/competition_archive.html", {
        "c": c, "result": c.result, "header": header, "cross": cross, "games": games, "winners": winners,
        "tie_break": archive.TIE_BREAK})


def competition_results(request, slug: str, fmt: str):
    if fmt not in ("csv", "json"):
        raise Http404("results come as .csv or .json")
    c = _get(request, slug)
    if not services.results_visible(c, request.user):
        raise Http404("no results yet")
    if fmt == "csv":
        resp = HttpResponse(archive.as_csv(c), content_type="text/csv; charset=utf-8")
    else:
        resp = HttpResponse(json.dumps(archive.as_json(c), indent=1), content_type="application/json")
    resp["Content-Disposition"] = f'attachment; filename="{c.slug}-results.{fmt}"'
    return resp
