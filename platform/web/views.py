"""Server-rendered pages: home, ladder leaderboards, bots, matches (with the replay viewer), tournaments, and
the owner's pages (log-in, sign-up, API token, upload, challenge). Writes go through the REST API (the owner
pages call it from small scripts with the session), so the rules live in one place."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.db.models import Case, F, FloatField, Prefetch, Value, When, Window
from django.db.models.functions import Cast, Rank
from django.http import FileResponse, Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from arena import games as game_registry
from botregistry.models import Bot, BotVersion
from ladders.models import Ladder, Rating
from matches.models import Match, Participant

from . import charts, frames

# OpenSkill μ to Elo points: Plackett–Luce compares exp(μ/c) with c = √2·β for settled ratings (β = 25/6), Elo
# compares 10^(elo/400); one μ unit is then 400 / (ln 10 · c) ≈ 29.5 Elo points. The "±" on the leaderboard is
# the 95% interval 1.96·σ on that scale.
ELO_PER_MU = 400 / (math.log(10) * math.sqrt(2) * 25 / 6)

LEADERBOARD_SORTS = {
    "rank": ("-elo", "id"),
    "elo": ("-elo", "id"),
    "-elo": ("elo", "id"),
    "games": ("-games", "-elo"),
    "-games": ("games", "-elo"),
    "winrate": (F("winrate").desc(nulls_last=True), "-elo"),
    "-winrate": (F("winrate").asc(nulls_last=True), "-elo"),
    "bot": ("bot__name", "id"),
    "-bot": ("-bot__name", "id"),
    "owner": ("bot__owner__username", "-elo"),
    "-owner": ("-bot__owner__username", "-elo"),
}


def _live_page(request, template: str, fragment: str, context: dict, live: bool) -> HttpResponse:
    """Render `template`, or with `?fragment=1` only its live region (`fragment`, see web/_live.html and
    web/live.js). `live` says whether the region still changes; the fragment's `X-Live: 0` tells the script to
    stop (a tournament that has just finished)."""
    context.update(live=live, live_seconds=settings.ARENA_LIVE_SECONDS)
    if request.GET.get("fragment") != "1":
        return render(request, template, context)
    resp = render(request, fragment, context)
    resp["X-Live"] = "1" if live else "0"
    resp["Cache-Control"] = "no-store"
    return resp


def _tournaments():
    from tournaments.models import Tournament
    return Tournament


def home(request):
    Tournament = _tournaments()
    ladders = list(Ladder.objects.filter(active=True))
    tops = {}
    for ladder in ladders:
        tops[ladder.pk] = list(Rating.objects.filter(ladder=ladder).select_related("bot__owner")
                               .order_by("-elo", "id")[:5])
    for ladder in ladders:
        ladder.top = tops[ladder.pk]
    tournaments = list(Tournament.objects.filter(status__in=["scheduled", "running"])
                       .order_by("starts_at")[:10])
    recent = (Match.objects.filter(status=Match.Status.FINISHED).order_by("-finished_at")
              .prefetch_related(Prefetch("participants", queryset=Participant.objects.select_related("bot")))[:10])
    return _live_page(request, "web/home.html", "web/_home_recent.html", {
        "games": game_registry.names(), "ladders": ladders, "tournaments": tournaments, "recent": recent},
        live=True)


def ladder(request, slug: str):
    ladder = get_object_or_404(Ladder, slug=slug)
    sort = request.GET.get("sort", "rank")
    if sort not in LEADERBOARD_SORTS:
        sort = "rank"
    qs = (Rating.objects.filter(ladder=ladder)
          .select_related("bot__owner")
          .annotate(rank=Window(Rank(), order_by=[F("elo").desc()]),
                    winrate=Case(When(games=0, then=Value(None)),
                                 default=Cast(F("wins"), FloatField()) / Cast(F("games"), FloatField())))
          .order_by(*LEADERBOARD_SORTS[sort]))
    page = Paginator(qs, _page_size(request)).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    for r in rows:
        r.interval = 1.96 * r.sigma * ELO_PER_MU
        r.win_pct = 100.0 * r.wins / r.games if r.games else None
    return _live_page(request, "web/ladder.html", "web/_ladder_board.html", {
        "ladder": ladder, "page": page, "rows": rows, "sort": sort,
        "provisional_games": settings.ARENA_RATING["provisional_games"],
        "columns": [("rank", "Rank"), ("bot", "Bot"), ("owner", "Owner"), ("elo", "Rating"),
                    ("games", "Games"), ("winrate", "Win rate")]}, live=ladder.active)


def _page_size(request) -> int:
    try:
        return max(10, min(200, int(request.GET.get("per_page", 50))))
    except ValueError:
        return 50


def bot(request, bot_id: int):
    b = get_object_or_404(Bot.objects.select_related("owner", "active_version"), pk=bot_id)
    versions = list(b.versions.order_by("-number"))
    is_owner = request.user.is_authenticated and (request.user.pk == b.owner_id or request.user.is_staff)
    ratings = list(b.ratings.select_related("ladder"))
    for r in ratings:
        r.interval = 1.96 * r.sigma * ELO_PER_MU
        history = list(Participant.objects.filter(bot=b, match__ladder=r.ladder, match__rated=True,
                                                  elo_after__isnull=False)
                       .order_by("-match__finished_at").values_list("match__finished_at", "elo_after")[:300])
        history.reverse()
        r.chart = charts.rating_history(history, label=f"Rating history of {b.name} on {r.ladder.name}")
    recent = (Match.objects.filter(participants__bot=b).order_by("-id")
              .prefetch_related(Prefetch("participants", queryset=Participant.objects.select_related("bot")))[:20])
    return render(request, "web/bot.html", {"bot": b, "versions": versions, "ratings": ratings,
                                            "recent": recent, "is_owner": is_owner})


def match(request, match_id: int):
    m = get_object_or_404(Match.objects.select_related("ladder"), pk=match_id)
    seats = list(m.participants.select_related("bot__owner", "version").order_by("seat"))
    tgame = getattr(m, "tournament_game", None)  # the reverse one-to-one raises an AttributeError when absent
    players = len(seats)
    return render(request, "web/match.html", {
        "match": m, "seats": seats, "tournament_game": tgame,
        "has_replay": bool(m.replay_path), "seat_range": range(players)})


@require_GET
def match_frames(request, match_id: int):
    m = get_object_or_404(Match, pk=match_id)
    players = int((m.params or {}).get("players") or m.participants.count())
    try:
        seat = frames.parse_seat(request.GET.get("seat"), players)
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain")
    try:
        data = frames.frames_gz(m, seat)
    except PermissionError as exc:
        return HttpResponse(str(exc), status=403, content_type="text/plain")
    except frames.NoReplay as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain")
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        resp = HttpResponse(data, content_type="application/json")
        resp["Content-Encoding"] = "gzip"
    else:
        import gzip
        resp = HttpResponse(gzip.decompress(data), content_type="application/json")
    resp["Vary"] = "Accept-Encoding"
    resp["Cache-Control"] = "public, max-age=3600"
    return resp


@require_GET
def match_replay(request, match_id: int):
    m = get_object_or_404(Match, pk=match_id)
    path = m.replay_file
    if path is None or not path.exists():
        raise Http404("this match has no replay")
    return FileResponse(open(path, "rb"), as_attachment=True, filename=f"match-{m.pk}.replay.json.gz",
                        content_type="application/gzip")


def tournaments(request):
    Tournament = _tournaments()
    qs = Tournament.objects.all().order_by("-starts_at")
    page = Paginator(qs, 30).get_page(request.GET.get("page"))
    return render(request, "web/tournaments.html", {"page": page})


def tournament(request, tournament_id: int):
    Tournament = _tournaments()
    from tournaments import services as tservices
    t = get_object_or_404(Tournament, pk=tournament_id)
    entries = {e.id: e for e in t.entries.select_related("bot__owner", "version")}
    if t.final_standings is not None:
        table = t.final_standings
    elif t.status == Tournament.Status.RUNNING:
        table = tservices.standings(t)
    else:
        table = []
    rounds = list(t.rounds.prefetch_related("games__match__participants", "byes__bot").order_by("number"))
    for rnd in rounds:
        for g in rnd.games.all():
            g.entries = [entries[e] for e in g.seats]
            parts = {p.seat: p for p in g.match.participants.all()} if g.match else {}
            g.rows = [{"entry": entries[e], "part": parts.get(i),
                       "forfeit": (g.forfeit or {}).get(str(e), "")} for i, e in enumerate(g.seats)]
    return _live_page(request, "web/tournament.html", "web/_tournament_live.html", {
        "t": t, "table": table, "rounds": rounds, "entries": sorted(entries.values(), key=lambda e: (e.seeding, e.id)),
        "total_rounds": t.total_rounds},
        live=t.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING))


# ------------------------------------------------------------------------------------------------ owner pages

def signup(request):
    if request.method == "POST":
        form = UserCreationForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}. Create a bot and upload its first version.")
            return redirect("web:me")
    else:
        form = UserCreationForm()
    return render(request, "web/signup.html", {"form": form})


@login_required(login_url="web:login")
def me(request):
    from rest_framework.authtoken.models import Token

    if request.method == "POST" and request.POST.get("action") == "new-token":
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
        messages.success(request, "A new API token was made; the old one no longer works.")
        return redirect("web:me")
    token = Token.objects.filter(user=request.user).first()
    bots = list(Bot.objects.filter(owner=request.user).select_related("active_version")
                .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number"))))
    opponents = (Bot.objects.exclude(owner=request.user).filter(active_version__status=BotVersion.Status.READY)
                 .select_related("owner").order_by("game", "name")[:500])
    ladders = Ladder.objects.filter(active=True)
    return render(request, "web/me.html", {"token": token, "bots": bots, "opponents": opponents,
                                           "ladders": ladders, "games": game_registry.names()})
