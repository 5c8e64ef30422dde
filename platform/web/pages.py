"""The pages a visitor looks for beyond the home page: every match (filtered, paginated), the ladders, one page
per game (its players' rules from RULES.md, the engine notes on a page for developers, its ladders), a user's bots, and the favicon.

Filters come from the query string and are hostile input: a value that is not one of the known choices (or not
a number where a number is needed) answers 400 with the reason, never a 500 or a silently ignored filter."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone, translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from arena import games as game_registry
from arena_site import query
from arena_site.visibility import hidden_for
from botregistry.models import Bot
from ladders.models import Ladder, Rating
from matches.models import Match, Participant
from matches.visibility import hidden_q, visible_matches
from tables.models import Table
from tournaments.models import Tournament
from web.context import html_lang

from . import frames

STATIC = Path(__file__).resolve().parent / "static" / "web"
MATCHES_PER_PAGE = 50


class ListPage:
    """One page of a list without counting the whole list (a COUNT over 100,000 matches costs more than the
    page): it reads one row more than it shows to know whether there is a next page."""

    def __init__(self, qs, number: str | None, size: int):
        try:
            self.number = max(1, min(MAX_PAGE, int(number or 1)))
        except ValueError:
            self.number = 1
        rows = list(qs[(self.number - 1) * size:self.number * size + 1])
        self.object_list = rows[:size]
        self.has_next = len(rows) > size
        self.has_previous = self.number > 1
        self.next_page_number = self.number + 1
        self.previous_page_number = self.number - 1

    def __iter__(self):
        return iter(self.object_list)


#: the deepest page the match list serves (an OFFSET is a scan; filters reach older matches faster)
MAX_PAGE = 5000


class BadFilter(ValueError):
    """A query-string filter the page cannot apply (the message says why)."""


def _param(parse, request, name: str, *args):
    try:
        return parse(name, request.GET.get(name), *args)
    except query.BadParameter as exc:
        raise BadFilter(str(exc)) from None




def _bot_param(request) -> int | str | None:
    """The match list's bot: an id (digits) or a bot's name as people know it (any owner's bot of that name)."""
    raw = (request.GET.get("bot") or "").strip()
    if raw.isascii() and raw.isdigit():
        return _param(query.parse_id, request, "bot")
    name = _param(query.parse_text, request, "bot", 64)
    if name and not Bot.objects.filter(name__iexact=name.strip()).exists():
        raise BadFilter(f"there is no bot named {name.strip()[:64]!r} (the bot filter takes a name or an id)")
    return name.strip() if name else None


def match_filters(request) -> dict:
    """The match list's filters as given (validated): game, ladder (slug), bot (id or name), status, kind,
    tournament."""
    f = {
        "game": _param(query.parse_choice, request, "game", game_registry.names()),
        "ladder": _param(query.parse_slug, request, "ladder"),
        "bot": _bot_param(request),
        "status": _param(query.parse_choice, request, "status", Match.Status.values),
        "kind": _param(query.parse_choice, request, "kind", Match.Kind.values),
        "tournament": _param(query.parse_id, request, "tournament"),
    }
    hidden = hidden_for(request.user)  # a private competition's ladder and final are unknown to outsiders
    if f["ladder"] and not Ladder.objects.filter(slug=f["ladder"]).exclude(pk__in=hidden.ladders).exists():
        raise BadFilter(f"there is no ladder {f['ladder'][:64]!r}")
    if f["tournament"] and not (Tournament.objects.filter(pk=f["tournament"])
                                .exclude(pk__in=hidden.tournaments).exists()):
        raise BadFilter(f"there is no tournament {f['tournament']}")
    return f


def match_list(request):
    try:
        f = match_filters(request)
    except BadFilter as exc:
        return render(request, "web/matches.html", {"error": str(exc), **_match_form_context(request, {})},
                      status=400)
    qs = visible_matches(Match.objects.all(), request.user)
    if f["game"]:
        qs = qs.filter(game=f["game"])
    if f["ladder"]:
        qs = qs.filter(ladder__slug=f["ladder"])
    if f["bot"]:
        seats = (Participant.objects.filter(bot_id=f["bot"]) if isinstance(f["bot"], int)
                 else Participant.objects.filter(bot__name__iexact=f["bot"]))
        qs = qs.filter(pk__in=seats.values("match_id"))
    if f["status"]:
        qs = qs.filter(status=f["status"])
    if f["kind"]:
        qs = qs.filter(kind=f["kind"])
    if f["tournament"]:
        qs = qs.filter(tournament_game__round__tournament_id=f["tournament"])
    qs = qs.order_by("-id").prefetch_related(
        Prefetch("participants", queryset=Participant.objects.select_related("bot").order_by("seat")))
    page = ListPage(qs, request.GET.get("page"), MATCHES_PER_PAGE)
    query = urlencode({k: v for k, v in f.items() if v})
    bot = (Bot.objects.filter(pk=f["bot"]).first() if isinstance(f["bot"], int)
           else Bot.objects.filter(name__iexact=f["bot"]).order_by("pk").first() if f["bot"] else None)
    return render(request, "web/matches.html", {
        "page": page, "per_page": MATCHES_PER_PAGE, "filters": f, "extra": f"&{query}" if query else "", "filter_bot": bot,
        **_match_form_context(request, f)})


def _match_form_context(request, f: dict) -> dict:
    hidden = hidden_for(request.user)
    return {"filters": f, "games": game_registry.names(),
            "ladders": Ladder.objects.exclude(pk__in=hidden.ladders).order_by("name"),
            "statuses": Match.Status.choices, "kinds": Match.Kind.choices,
            "tournament_choices": Tournament.objects.exclude(pk__in=hidden.tournaments).order_by("-starts_at")[:100]}


def ladder_list(request):
    ladders = (Ladder.objects.filter(listed=True).annotate(bots=Count("ratings"))  # competitions': their pages
               .order_by("-active", "game", "players", "name"))
    return render(request, "web/ladders.html", {"ladders": ladders})


#: the heading in a game's RULES.md where the players' rules end and the engine notes for developers begin
DEVELOPERS_HEADING = "## For developers"


def rules_text(game: str, language: str | None = None) -> tuple[str, str]:
    """(players' rules, engine notes) of the game's RULES.md: the text before its "For developers" heading (less
    the file's title) and the text after it. A file without that heading is all players' rules.

    `language` (a BCP 47 tag: `pt-BR`, `zh-Hans`): the players' rules of the translation beside it,
    `RULES.<tag>.md`, when there is one (the engine notes stay the English file's)."""
    folder = Path(game_registry.__file__).resolve().parent / game
    players, notes = _rules_of(folder / "RULES.md")
    translated = folder / f"RULES.{language}.md" if language and language != "en" else None
    if translated is not None and translated.is_file():
        players = _rules_of(translated)[0] or players
    return players, notes


def _rules_of(path: Path) -> tuple[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return "", ""
    lines = text.splitlines()
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    for i, line in enumerate(body):
        if line.strip() == DEVELOPERS_HEADING:
            return "\n".join(body[:i]).strip(), "\n".join(body[i + 1:]).strip()
    return "\n".join(body).strip(), ""


def _game(name: str):
    if name not in game_registry.names():
        raise Http404(f"no game {name!r}")
    return game_registry.game_class(name)


def game_page(request, name: str):
    game = _game(name)
    players_rules, engine_notes = rules_text(name, html_lang(translation.get_language()))
    ladders = Ladder.objects.filter(game=name, listed=True).annotate(bots=Count("ratings")).order_by("-active", "players")
    bots = Bot.objects.filter(game=name).count()
    recent = (visible_matches(Match.objects.filter(game=name, status=Match.Status.FINISHED), request.user)
              .order_by("-id")
              .prefetch_related(Prefetch("participants",
                                         queryset=Participant.objects.select_related("bot").order_by("seat")))[:10])
    # the pictures (drawn by the viewer from an example game, web/frames.example_gz) stand after "What is on
    # the table" and before "Setup": the rules read up to there, a picture of the table, the rest
    head, mark, tail = players_rules.partition(SETUP_HEADING)
    rules_head, rules_tail = (head, mark + tail) if mark else (players_rules, "")
    return render(request, "web/game.html", {
        "name": name, "game": {"min_players": game.min_players, "max_players": game.max_players,
                               "engine_version": game.engine_version},
        "rules": rules_head, "rules_tail": rules_tail,
        "has_engine_notes": bool(engine_notes), "ladders": ladders, "bots": bots,
        "recent": recent, "players": range(game.min_players, game.max_players + 1)})


SETUP_HEADING = "\n### Setup"


@require_GET
@cache_control(public=True, max_age=3600)
def game_example(request, name: str):
    """The viewer's payload of the rules page's example game (web/frames.example_gz): the same for everyone,
    nothing hidden (a made-up game between in-process players)."""
    _game(name)
    # the pictures' narration in the page's language (diagram.js sends its <html lang>), else the request's
    return frames.response(request, frames.example_gz(name, request.GET.get("lang") or request.LANGUAGE_CODE))


def game_developers_page(request, name: str):
    """The engine notes of a game's RULES.md: every rule choice with its source and test, the engine's interface."""
    game = _game(name)
    _, engine_notes = rules_text(name)
    if not engine_notes:
        raise Http404(f"no engine notes for {name!r}")
    return render(request, "web/game_developers.html", {
        "name": name, "engine_version": game.engine_version, "notes": engine_notes})


def user_page(request, username: str):
    if not query.USERNAME.fullmatch(username):
        raise Http404("no such user")
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    hidden = hidden_for(request.user)  # what a private competition of theirs would show
    bots = list(Bot.objects.filter(owner=user).select_related("active_version", "team")
                .annotate(matches=Count("participations",
                                        filter=~hidden_q(hidden, "participations__match__")))
                .order_by("game", "name"))
    ratings = (Rating.objects.filter(bot__owner=user).exclude(ladder_id__in=hidden.ladders)
               .select_related("ladder", "bot").order_by("-rating"))
    by_bot: dict[int, list] = {}
    for r in ratings:
        by_bot.setdefault(r.bot_id, []).append(r)
    for b in bots:
        b.ladder_ratings = by_bot.get(b.pk, [])
    # their bots' matches and the tables they sat at themselves (kind human: the ones they set, and the ones they
    # took a seat at through an invitation)
    recent = (visible_matches(Match.objects.filter(Q(pk__in=Participant.objects.filter(bot__owner=user)
                                                     .values("match_id"))
                                                   | Q(kind=Match.Kind.HUMAN, requested_by=user)
                                                   | Q(kind=Match.Kind.HUMAN, table__seats__person=user)).distinct(),
                              request.user)
              .order_by("-id").prefetch_related(
                  Prefetch("participants", queryset=Participant.objects.select_related("bot").order_by("seat")))[:10])
    is_self = request.user.is_authenticated and request.user.pk == user.pk
    # their own open tables (set, or a seat taken): only they see them, as only the people at a table may
    open_tables = list(Table.objects.filter(status=Table.Status.OPEN, seats__person=user,
                                            expires_at__gt=timezone.now()).distinct().order_by("-id")[:10]) \
        if is_self else []
    return render(request, "web/user.html", {"owner": user, "bots": bots, "recent": recent, "is_self": is_self,
                                             "open_tables": open_tables})


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request):
    return FileResponse(open(STATIC / "favicon.svg", "rb"), content_type="image/svg+xml")



SEARCH_LIMIT = 25  # results of each kind a search shows


def search(request):
    """Bots, users and teams whose name holds the words typed (case-insensitive), at most `SEARCH_LIMIT` of each,
    exact names first. Deleted accounts and teams are not found."""
    from teams.models import Team

    try:
        q = (_param(query.parse_text, request, "q", 64) or "").strip()
    except BadFilter as exc:
        return render(request, "web/search.html", {"q": "", "error": str(exc)}, status=400)
    from competitions.visibility import visible_competitions

    found: dict = {"bots": [], "users": [], "teams": [], "competitions": []}
    if q:
        def first_exact(qs, field: str) -> list:
            rows = list(qs.filter(**{f"{field}__icontains": q}).order_by(field)[:SEARCH_LIMIT])
            return sorted(rows, key=lambda r: getattr(r, field).lower() != q.lower())

        found = {
            "bots": first_exact(Bot.objects.select_related("owner", "team"), "name"),
            "users": first_exact(get_user_model().objects.filter(is_active=True), "username"),
            "teams": first_exact(Team.objects.filter(deleted_at__isnull=True), "name"),
            # a private competition only for its organizers and entrants (competitions.visibility)
            "competitions": first_exact(visible_competitions(request.user), "title"),
        }
    return render(request, "web/search.html", {"q": q, **found, "limit": SEARCH_LIMIT})
