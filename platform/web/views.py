"""Server-rendered pages: home, ladder leaderboards, bots, matches (with the replay viewer), tournaments, and
the owner's pages (log-in, sign-up, API token, upload, challenge). Writes go through the REST API (the owner
pages call it from small scripts with the session), so the rules live in one place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Case, F, FloatField, OrderBy, Prefetch, Value, When, Window
from django.db.models.functions import Cast, Rank
from django.http import FileResponse, Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from accounts import tokens
from accounts.emails import verification_pending
from accounts.models import ApiToken
from arena import games as game_registry
from arena import narration
from arena_site import objects
from arena_site.visibility import hidden_for
from botregistry.levels import level_of
from botregistry.models import Bot, BotVersion
from botregistry.ownership import can_manage, can_play, playable_by, retired_why
from ladders.leaderboard import with_version_games
from ladders.models import Ladder, Rating, RatingHistory, VersionRating
from ladders.rating import pairing_score
from matches.models import Match, Participant
from matches.seeds import deal_visible, is_staff, seed_is_public, visible_faults, visible_seed
from matches.visibility import can_see, hidden_q, visible_matches
from tournaments import services as tservices
from tournaments.models import Tournament

from . import charts, frames
from .templatetags.web_extras import PersonSeat
from .watch import deal_in_play_elsewhere, live_now

#: what the viewer's "skip" buttons skip by, per game (arena.games.<game>.narrate.chapter)
CHAPTER_WORDS = {"thebes": gettext_lazy("year"), "minos": gettext_lazy("round")}

LEADERBOARD_SORTS: dict[str, tuple[str | OrderBy, ...]] = {
    "rank": ("-rating", "id"),
    "elo": ("-rating", "id"),
    "-elo": ("rating", "id"),
    "games": ("-version_games", "-games", "-rating"),
    "-games": ("version_games", "games", "-rating"),
    "winrate": (F("winrate").desc(nulls_last=True), "-rating"),
    "-winrate": (F("winrate").asc(nulls_last=True), "-rating"),
    "bot": ("bot__name", "id"),
    "-bot": ("-bot__name", "id"),
    "owner": ("bot__owner__username", "-rating"),
    "-owner": ("-bot__owner__username", "-rating"),
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


def home(request):
    ladders = list(Ladder.objects.filter(active=True, listed=True))  # a competition's ladder is on its page
    tops = {}
    for ladder in ladders:
        tops[ladder.pk] = list(Rating.objects.filter(ladder=ladder, bot__retired_at__isnull=True)
                               .select_related("bot__owner")
                               .order_by("-rating", "id")[:5])
    for ladder in ladders:
        ladder.top = tops[ladder.pk]
    hidden = hidden_for(request.user)
    tournaments = list(Tournament.objects.filter(status__in=["scheduled", "running"])
                       .exclude(pk__in=hidden.tournaments).order_by("starts_at")[:10])
    recent = (visible_matches(Match.objects.filter(status=Match.Status.FINISHED), request.user)
              .order_by("-finished_at")
              .prefetch_related(Prefetch("participants", queryset=Participant.objects.select_related("bot")))[:10])
    return _live_page(request, "web/home.html", "web/_home_recent.html", {
        "games": game_registry.names(), "ladders": ladders, "tournaments": tournaments, "recent": recent,
        "live_now": live_now(Match.objects.all())},
        live=True)


def ladder(request, slug: str):
    ladder = get_object_or_404(Ladder.objects.exclude(pk__in=hidden_for(request.user).ladders), slug=slug)
    sort = request.GET.get("sort", "rank")
    if sort not in LEADERBOARD_SORTS:
        sort = "rank"
    qs = (with_version_games(Rating.objects.filter(ladder=ladder, bot__retired_at__isnull=True))  # retired: gone
          .select_related("bot__owner", "bot__team", "bot__active_version")
          .annotate(rank=Window(Rank(), order_by=[F("rating").desc()]),
                    winrate=Case(When(games=0, then=Value(None)),
                                 default=Cast(F("wins"), FloatField()) / Cast(F("games"), FloatField())))
          .order_by(*LEADERBOARD_SORTS[sort]))
    page = Paginator(qs, _page_size(request)).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    for r in rows:  # the fitted rating's own 95% interval (ladders.rating_fit); None before the first fit
        r.win_pct = 100.0 * r.wins / r.games if r.games else None
        r.level = level_of(r.bot.name, r.bot.builtin)
    from competitions.models import Season

    return _live_page(request, "web/ladder.html", "web/_ladder_board.html", {
        "seasons": list(Season.objects.filter(ladder=ladder).order_by("-number")),
        "ladder": ladder, "page": page, "rows": rows, "sort": sort, "levels": _levels(ladder),
        "live_now": live_now(Match.objects.filter(ladder=ladder)),
        "provisional_games": settings.ARENA_RATING["provisional_games"],
        "columns": [("rank", gettext("Rank")), ("bot", gettext("Bot")), ("owner", gettext("Owner")),
                    ("elo", gettext("Rating")), ("games", gettext("Games")), ("winrate", gettext("Win rate"))]}, live=ladder.active)


def _levels(ladder: Ladder) -> list[Rating]:
    """The built-in bots of this ladder that come in levels (`botregistry.levels`), lowest level first, each
    with its `level` and its rank on the ladder: the opponents a new author climbs."""
    on_ladder = Rating.objects.filter(ladder=ladder, bot__retired_at__isnull=True)
    out = []
    for r in on_ladder.filter(bot__builtin=True).select_related("bot"):
        r.level = level_of(r.bot.name, r.bot.builtin)
        if r.level is not None:  # the leaderboard's rank (ties share one): a handful of levels, a count each
            r.rank = on_ladder.filter(rating__gt=r.rating).count() + 1
            out.append(r)
    return sorted(out, key=lambda r: r.level)


def _page_size(request) -> int:
    try:
        return max(10, min(200, int(request.GET.get("per_page", 50))))
    except ValueError:
        return 50


def bot(request, bot_id: int):
    b = get_object_or_404(Bot.objects.select_related("owner", "team", "active_version"), pk=bot_id)
    versions = list(b.versions.select_related("uploaded_by").order_by("-number"))
    b.retired_why = retired_why(b)
    plays = can_play(request.user, b)  # its owner; a team bot: the team's members (botregistry.ownership)
    is_owner = plays or is_staff(request.user)
    if plays:
        from botregistry.services import failed_transiently

        for v in versions:  # the owner's "validate again" (POST /api/versions/{id}/revalidate/)
            v.can_revalidate = failed_transiently(v)
            v.can_resume = v.status == v.Status.SUSPENDED  # POST /api/versions/{id}/resume/
    hidden = hidden_for(request.user)  # a private competition's ladder and final, unless they may see it
    ratings = list(b.ratings.select_related("ladder").exclude(ladder_id__in=hidden.ladders))
    mine = list(Participant.objects.filter(bot=b, match__status=Match.Status.FINISHED)
                .exclude(hidden_q(hidden, "match__"))
                .order_by("-match_id").values("match_id", "match__ladder_id", "rank", "score")[:HEAD_TO_HEAD_MATCHES])
    ranks: dict[int, list[int]] = {}
    for p in mine:
        if p["rank"] is not None and p["match__ladder_id"] is not None:
            ranks.setdefault(p["match__ladder_id"], []).append(p["rank"])
    for r in ratings:  # the rating is the active version's; every version's own, and their course, beside it
        got = ranks.get(r.ladder_id) or []
        r.avg_rank = sum(got) / len(got) if got else None
        r.versions = list(VersionRating.objects.filter(ladder=r.ladder, version__bot=b)
                          .select_related("version").order_by("-version__number"))
        # the headline's games are the rated version's, as in ladders.leaderboard; every version's in all beside
        r.version_games = next((vr.games for vr in r.versions if vr.version_id == b.active_version_id),
                               r.games if r.ladder.fitted_at is None else 0)
        history = list(RatingHistory.objects.filter(ladder=r.ladder, version__bot=b).order_by("-at", "-id")
                       .values_list("version__number", "at", "rating", "rating_interval", "games")[:RATING_POINTS])
        series: dict[int, list[charts.RatingPoint]] = {}
        for number, at, value, interval, games in reversed(history):
            series.setdefault(number, []).append(charts.RatingPoint(at, value, interval, games))
        r.chart = charts.rating_history(series, label=gettext("Rating of each version of %(bot)s on %(ladder)s, at each "
                                                        "refit") % {"bot": b.name, "ladder": r.ladder.name})
    recent = list(visible_matches(Match.objects.filter(participants__bot=b), request.user).order_by("-id")
                  .prefetch_related(Prefetch("participants", queryset=Participant.objects.select_related("bot")))[:20])
    for m in recent:
        m.me = next((p for p in m.participants.all() if p.bot_id == b.pk), None)
        if m.me is not None:  # faults of this match by kind, in order of first appearance
            m.me.fault_kinds = list(Counter(f.get("kind") for f in m.me.faults or []).items())
    # faults by kind over the bot's latest finished matches (the same window as the head-to-head table)
    kinds: Counter = Counter()
    window = (Participant.objects.filter(bot=b, match__status=Match.Status.FINISHED)
              .exclude(hidden_q(hidden, "match__")).order_by("-match_id"))
    for faults in window.values_list("faults", flat=True)[:HEAD_TO_HEAD_MATCHES]:
        kinds.update(f.get("kind") for f in faults or [] if f.get("kind") != "disqualified")
    from competitions.seasons import bot_seasons

    return render(request, "web/bot.html", {"bot": b, "versions": versions, "ratings": ratings,
                                            "seasons": bot_seasons(b.pk),
                                            "recent": recent, "is_owner": is_owner,
                                            "head_to_head": head_to_head(b, mine),
                                            "fault_kinds": kinds.most_common(), "fault_matches": len(mine),
                                            "can_switch": plays, "can_move": can_manage(request.user, b)
                                            and not b.builtin, "my_teams": list(request.user.teams.all())
                                            if request.user.is_authenticated and b.team_id is None else []})


#: the bot page's rating chart shows at most this many of a ladder's latest points (all versions together)
RATING_POINTS = 600

#: the bot page's head-to-head table and average ranks read at most this many of the bot's latest matches
HEAD_TO_HEAD_MATCHES = 2000


def head_to_head(b: Bot, mine: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Per opponent met in `mine` (this bot's finished matches): games together, this bot's and the opponent's
    average rank in them, the average score difference (this bot minus the opponent), and how often this bot
    finished ahead. Most-met opponents first, at most 30."""
    by_match = {p["match_id"]: p for p in mine}
    rows: dict[int, dict] = {}
    others = (Participant.objects.filter(match_id__in=list(by_match)).exclude(bot=b)
              .values("match_id", "bot_id", "bot__name", "rank", "score"))
    for o in others:
        me = by_match[o["match_id"]]
        row = rows.setdefault(o["bot_id"], {"bot_id": o["bot_id"], "name": o["bot__name"], "games": 0,
                                            "my_ranks": [], "their_ranks": [], "diffs": [], "ahead": 0})
        row["games"] += 1
        if me["rank"] is not None and o["rank"] is not None:
            row["my_ranks"].append(me["rank"])
            row["their_ranks"].append(o["rank"])
            row["ahead"] += me["rank"] < o["rank"]
        if me["score"] is not None and o["score"] is not None:
            row["diffs"].append(me["score"] - o["score"])
    out = sorted(rows.values(), key=lambda r: (-r["games"], r["name"]))[:30]
    for r in out:
        r["my_rank"] = sum(r["my_ranks"]) / len(r["my_ranks"]) if r["my_ranks"] else None
        r["their_rank"] = sum(r["their_ranks"]) / len(r["their_ranks"]) if r["their_ranks"] else None
        r["diff"] = sum(r["diffs"]) / len(r["diffs"]) if r["diffs"] else None
    return out


def match(request, match_id: int):
    m = get_object_or_404(visible_matches(Match.objects.select_related("ladder"), request.user), pk=match_id)
    seats = list(m.participants.select_related("bot__owner", "bot__team", "version").order_by("seat"))
    visible = deal_visible(m, request.user)
    # the rating a seat shows is its version's on the match's ladder (the bot page's and leaderboard's meaning)
    rated = {v.version_id: v for v in VersionRating.objects.filter(
        ladder_id=m.ladder_id, version_id__in=[p.version_id for p in seats])} if m.ladder_id else {}
    for p in seats:
        own = can_play(request.user, p.bot)
        p.shown_faults = visible_faults(p.faults, deal_visible=visible, own_seat=own)
        p.version_rating = rated.get(p.version_id)
    tgame = getattr(m, "tournament_game", None)  # the reverse one-to-one raises an AttributeError when absent
    # the seats people play (kind human) have no Participant: their names are their players' user names
    people = {int(s): uid for s, uid in (m.people or {}).items()}
    person_names = dict(get_user_model().objects.filter(pk__in=people.values()).values_list("pk", "username"))
    seat_names = {p.seat: p.version.seat_name for p in seats}
    seat_names.update({s: person_names.get(uid, "?") for s, uid in people.items()})
    players = len(seats) + len(people)
    # the seats table: the bots' rows and the people's (their user names; rank, score from the result once over)
    result_seats = {r.get("seat"): r for r in (m.result or {}).get("seats") or [] if isinstance(r, dict)} \
        if isinstance(m.result, dict) else {}
    seat_rows = sorted([*seats, *(PersonSeat(s, {**result_seats.get(s, {}), "name": person_names.get(uid, "?")})
                                  for s, uid in people.items())], key=lambda row: row.seat)
    play_seat = next((s for s, uid in people.items() if uid == request.user.pk), None) \
        if request.user.is_authenticated else None
    # a match under way: its progress (web/_match_progress.html) refreshes itself until the match is done
    return _live_page(request, "web/match.html", "web/_match_progress.html", {
        "match": m, "seats": seats, "seat_rows": seat_rows, "tournament_game": tgame, "seed": visible_seed(m, request.user),
        "has_replay": bool(m.replay_path), "seat_range": range(players),
        # the game's own opponents (Minos solo: Rhadamanthus), a row of the seats table once there is a result
        "opponents": frames.opponents(m.game, players, m.result) if m.result else [],
        "chapter_word": CHAPTER_WORDS.get(m.game, gettext_lazy("chapter")),
        # a match to be played or under way is watched live (web.watch; from the queue, it waits for the first
        # decision), unless its deal is still played in another match
        "live_watch": not m.done and (is_staff(request.user) or not deal_in_play_elsewhere(m)),
        "live_seat_names": [seat_names.get(s, "?") for s in range(players)],
        # the person's own seat: its view, its clock and, on its turn, its legal actions (web.play)
        "play_seat": play_seat if not m.done else None, "played_seat": play_seat,
        "live_glossary": narration.glossary(m.game) if not m.done else {},
        "own_seats": [p for p in seats if can_play(request.user, p.bot)]}, live=not m.done)


SEED_STILL_PLAYED = "this match's deal is still being played (duplicate set or version-test pair): shown once it is over"


@require_GET
def match_frames(request, match_id: int):
    m = get_object_or_404(visible_matches(Match.objects.all(), request.user), pk=match_id)
    public = seed_is_public(m)
    if m.done and not (public or is_staff(request.user)):  # its deal is still played in a sibling
        return HttpResponse(SEED_STILL_PLAYED, status=403, content_type="text/plain")
    players = int((m.params or {}).get("players") or m.participants.count())
    try:
        seat = frames.parse_seat(request.GET.get("seat"), players)
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain")
    try:
        # the story in the language the page asks for (the viewer sends its <html lang>), else the request's
        data = frames.frames_gz(m, seat, request.GET.get("lang") or request.LANGUAGE_CODE)
    except PermissionError as exc:
        return HttpResponse(str(exc), status=403, content_type="text/plain")
    except frames.NoReplay as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain")
    resp = frames.response(request, data)
    # staff's view of a deal still being played, and an entrant's of a private competition's match, must not
    # sit in a shared cache
    shared = public and can_see(m, None)
    resp["Cache-Control"] = "public, max-age=3600" if shared else "private, no-store"
    return resp


@require_GET
def match_replay(request, match_id: int):
    m = get_object_or_404(visible_matches(Match.objects.all(), request.user), pk=match_id)
    if not objects.exists(m.replay_path):
        raise Http404("this match has no replay")
    if not deal_visible(m, request.user):
        return HttpResponse(SEED_STILL_PLAYED, status=403, content_type="text/plain")
    # streamed from storage (arena_site.objects), as the API does: the seed check holds at every download
    return FileResponse(objects.storage().open(m.replay_path, "rb"), as_attachment=True,
                        filename=f"match-{m.pk}.replay.json.gz", content_type="application/gzip")


def tournaments(request):
    qs = Tournament.objects.exclude(pk__in=hidden_for(request.user).tournaments).order_by("-starts_at")
    page = Paginator(qs, 30).get_page(request.GET.get("page"))
    return render(request, "web/tournaments.html", {"page": page})


def tournament(request, tournament_id: int):
    t = get_object_or_404(Tournament.objects.exclude(pk__in=hidden_for(request.user).tournaments), pk=tournament_id)
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
    cross = cross_table(t, table, entries, rounds) if t.format == Tournament.Format.ROUND_ROBIN else None
    return _live_page(request, "web/tournament.html", "web/_tournament_live.html", {
        "t": t, "table": table, "rounds": rounds, "entries": sorted(entries.values(), key=lambda e: (e.seeding, e.id)),
        "total_rounds": t.total_rounds, "cross": cross,
        "live_now": live_now(Match.objects.filter(tournament_game__round__tournament=t))},
        live=t.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING))


def cross_table(t, table: list[dict], entries: dict, rounds: list) -> dict | None:
    """A round robin's cross-table: one row and one column per entry (in table order), each cell the points the
    row's bot took from the column's bot over their finished games (1 for finishing ahead, ½ for a tie, per pair
    of seats at a table, as in the standings), how many games they met in and the last of those matches. None before there are entries."""
    order = [row["entry"] for row in table if row.get("entry") in entries] or [
        e.id for e in sorted(entries.values(), key=lambda e: (e.seeding, e.id))]
    if not order:
        return None
    cells: dict[tuple[int, int], list[float]] = {}
    met: dict[tuple[int, int], list[int]] = {}  # the matches each pair met in, in round order
    for rnd in rounds:
        for g in rnd.games.all():
            if not g.match or g.match.status != "finished":
                continue
            ranks = {p.seat: p.rank for p in g.match.participants.all()}
            for i, a in enumerate(g.seats):
                for j, b in enumerate(g.seats):
                    if a == b or ranks.get(i) is None or ranks.get(j) is None:
                        continue
                    pts = pairing_score(ranks[i], ranks[j])  # 1 ahead, ½ tied: the tournament's points
                    cell = cells.setdefault((a, b), [0.0, 0])
                    cell[0] += pts
                    cell[1] += 1
                    met.setdefault((a, b), []).append(g.match.pk)
    rows = []
    for a in order:
        row = []
        for b in order:
            got = cells.get((a, b))
            row.append({"self": a == b, "points": got[0] if got else None, "games": got[1] if got else 0,
                        "opponent": entries[b].bot.name, "match": met[(a, b)][-1] if got else None})
        rows.append({"entry": entries[a], "cells": row})
    return {"columns": [entries[e] for e in order], "rows": rows}


# ------------------------------------------------------------------------------------------------ owner pages

def _save_notifications(request):
    """The owner page's notification form (a plain form: it works without JavaScript). Refused (a webhook URL
    that is not allowed, an address not one's own...): the page again with the error and every change the
    owner made still in the form (400), so nothing typed is lost."""
    from notifications import services as notifications
    from notifications.events import ALL

    posted = {"events": {e: f"event-{e}" in request.POST for e in ALL}, "email": "email" in request.POST,
              "email_address": request.POST.get("email_address", "").strip(),
              "webhook_url": request.POST.get("webhook_url", "").strip(),
              "rotate_secret": "rotate_secret" in request.POST}
    try:
        notifications.update(request.user, **posted)
    except notifications.PreferencesRefused as exc:
        messages.error(request, gettext("Notifications not saved: %(reason)s") % {"reason": exc})
        return _owner_page(request, refused={**posted, "errors": exc.errors}, status=400)
    messages.success(request, gettext("Notification choices saved."))
    return redirect("web:me")


@login_required(login_url="web:login")
def me(request):
    if request.method == "POST" and request.POST.get("action") == "notifications":
        return _save_notifications(request)
    if request.method == "POST" and request.POST.get("action") == "new-token":
        # Stored hashed: the key is shown once, on the page this redirects to, and nowhere else ever after.
        request.session["new_api_token"] = tokens.replace(request.user)
        messages.success(request, gettext("A new API token was made; the old ones no longer work."))
        return redirect("web:me")
    return _owner_page(request)


def _owner_page(request, refused: dict | None = None, status: int = 200):
    """The owner page; `refused`: the notification form as it was posted and refused, shown as posted."""
    token = ApiToken.objects.filter(user=request.user).first()
    new_key = request.session.pop("new_api_token", None)
    bots = list(playable_by(request.user).select_related("active_version", "team")  # own and teams' bots
                .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.select_related("uploaded_by")
                                           .order_by("-number"))))
    for b in bots:
        b.retired_why = retired_why(b)
    opponents = (Bot.objects.exclude(owner=request.user).filter(active_version__status=BotVersion.Status.READY,
                                                                retired_at__isnull=True)
                 .select_related("owner").order_by("game", "name")[:500])
    ladders = list(Ladder.objects.exclude(pk__in=hidden_for(request.user).ladders).order_by("game", "players"))
    # the challenge form opens on a ladder of the game of the first bot it offers, a playing one if any
    first_game = next((b.game for b in bots if b.playing_version is not None), None)
    of_game = sorted((lad for lad in ladders if lad.game == first_game), key=lambda lad: not lad.active)
    challenge_ladder = of_game[0].slug if of_game else ""
    from notifications import services as notifications
    from notifications.events import LABELS

    prefs = notifications.own_preferences(request.user)
    chosen = refused["events"] if refused else {e.value: e.value in prefs.events for e in LABELS}
    notify_events = [(e.value, gettext(label), chosen.get(e.value, False)) for e, label in LABELS.items()]
    notify = {"email": refused["email"] if refused else prefs.email,
              "email_address": refused["email_address"] if refused else request.user.email,
              "webhook_url": refused["webhook_url"] if refused else prefs.webhook_url,
              "webhook_secret": prefs.webhook_secret, "rotate_secret": bool(refused and refused["rotate_secret"]),
              "errors": refused["errors"] if refused else {}}
    response = render(request, "web/me.html", {"token": token, "new_key": new_key, "bots": bots,
                                               "opponents": opponents, "ladders": ladders,
                                               "challenge_ladder": challenge_ladder,
                                               "games": game_registry.names(),
                                               "notify": notify, "notify_events": notify_events,
                                               "verification_pending": verification_pending(request.user)},
                      status=status)
    if new_key:
        response["Cache-Control"] = "no-store"  # the key is on this page once: keep it out of caches
    return response
