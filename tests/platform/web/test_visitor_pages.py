"""The pages a visitor looks for (through Django's test client): a link crawl from the home page that finds no
non-200, the match list's filters and pages (bad filters are a 400 that says why), ladders, games with their
rules, users, the bot page's head-to-head, average rank, faults and rating chart, the round robin's cross-table,
wrong-game tournament entries refused when saved, the favicon, valid <time datetime> values, the log-in
landing, and the replay viewer's no-JavaScript fallback."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

# the HTML "valid date string" / "valid global date and time string" (1-3 fraction digits, Z or ±hh:mm)
VALID_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$")


def text(resp) -> str:
    return re.sub(r"\s+", " ", resp.content.decode())


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.times: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "time":
            self.times.append(a.get("datetime") or "")


def parse(resp) -> Links:
    p = Links()
    p.feed(resp.content.decode())
    return p


def crawl(client, start: str = "/", limit: int = 400) -> dict[str, int]:
    """Every same-site page reachable from `start` by links (the API's own pages excluded: the API has its own
    tests), with its status; also checks every <time datetime> on the way."""
    seen: dict[str, int] = {}
    todo = [start]
    while todo and len(seen) < limit:
        url = todo.pop(0)
        if url in seen:
            continue
        resp = client.get(url)
        seen[url] = resp.status_code
        if resp.status_code != 200 or "text/html" not in resp.get("Content-Type", ""):
            continue
        links = parse(resp)
        bad = [t for t in links.times if not VALID_DATETIME.match(t)]
        assert not bad, f"{url}: invalid <time datetime> {bad[:3]}"
        for href in links.hrefs:
            full = urlsplit(urljoin("http://testserver" + url, href))
            if full.netloc != "testserver" or full.path.startswith(("/api/", "/admin/", "/static/")):
                continue
            path = full.path + (f"?{full.query}" if full.query else "")
            if path not in seen:
                todo.append(path)
    return seen


@pytest.mark.django_db
def test_a_link_crawl_from_the_home_page_finds_no_error(client, world, settings, round_robin, minos_match):
    pages = crawl(client)
    bad = {url: status for url, status in pages.items() if status != 200}
    assert bad == {}
    for must in ("/matches/", "/ladders/", "/games/thebes/", "/games/minos/", "/users/owner0/",
                 f"/tournaments/{round_robin['tournament'].pk}/", f"/matches/{world['match'].pk}/",
                 f"/matches/{world['match'].pk}/replay.json.gz", "/tournaments/"):
        assert must in pages, f"{must} is not linked from anywhere a visitor can reach"
    client.force_login(world["owners"][0])
    pages = crawl(client, "/me/", limit=60)
    assert {u: s for u, s in pages.items() if s != 200} == {}


@pytest.mark.django_db
def test_match_list_filters_and_pages(client, world, settings, round_robin, minos_match):
    from matches.models import Match

    thebes, minos = world["match"], minos_match["match"]
    queued = Match.objects.create(game="thebes", ladder=world["ladder"], params={"players": 4}, seed=1)

    def ids(query: str) -> list[int]:
        resp = client.get("/matches/" + query)
        assert resp.status_code == 200, text(resp)
        return [int(x) for x in re.findall(r'href="/matches/(\d+)/"', resp.content.decode())]

    every = ids("")
    assert every == sorted(every, reverse=True) and {thebes.pk, minos.pk, queued.pk} <= set(every)
    assert minos.pk in ids("?game=minos") and thebes.pk not in ids("?game=minos")
    assert queued.pk in ids("?status=queued") and thebes.pk not in ids("?status=queued")
    assert ids("?kind=challenge") == [minos.pk]
    assert thebes.pk in ids("?ladder=thebes-4p") and minos.pk not in ids("?ladder=thebes-4p")
    assert ids(f"?tournament={round_robin['tournament'].pk}") == [thebes.pk]
    bot0 = world["bots"][0]
    with_bot = ids(f"?bot={bot0.pk}")
    assert thebes.pk in with_bot and minos.pk not in with_bot
    assert ids(f"?bot={bot0.pk}&status=finished&game=thebes&ladder=thebes-4p&kind=tournament") == [thebes.pk]
    assert ids(f"?bot={bot0.name.upper()}") == with_bot, "a bot's name finds the same matches as its id"
    # hostile filters: a clear 400, never a 500
    for query, why in [("?status=nope", "status must be one of"), ("?bot=x", "there is no bot named &#x27;x&#x27;"),
                       ("?bot=99999999999999999999", "out of range"), ("?game=chess", "game must be one of"),
                       ("?ladder=nope", "no ladder"), ("?tournament=123456", "no tournament"),
                       ("?kind=%3Cscript%3E", "kind must be one of")]:
        resp = client.get("/matches/" + query)
        assert resp.status_code == 400 and why in text(resp), query
        assert "<script>" not in resp.content.decode().split("<main", 1)[1].split("</main>")[0].replace(
            '<script type="module"', "")
    # pages of 50
    Match.objects.bulk_create([Match(game="minos", params={"players": 2}, seed=i) for i in range(60)])
    resp = client.get("/matches/?game=minos")
    assert len(re.findall(r'href="/matches/\d+/"', resp.content.decode())) == 50
    assert "Page 1" in text(resp) and 'href="?page=2&amp;game=minos" rel="next"' in resp.content.decode()
    assert len(ids("?game=minos&page=2")) == 11
    assert 'rel="next"' not in client.get("/matches/?game=minos&page=2").content.decode(), "the last page"
    assert client.get("/matches/?page=x").status_code == 200  # a bad page number shows the first page


@pytest.mark.django_db
def test_ladders_games_and_users(client, world):
    page = text(client.get("/ladders/"))
    assert 'href="/ladders/thebes-4p/"' in page and "Thebes 4 players" in page and 'href="/games/thebes/"' in page
    page = text(client.get("/games/thebes/"))
    from arena import games

    assert f"2–4 players · engine <code>{games.game_class('thebes').engine_version}</code>" in page
    assert "Peter Prinz" in page and 'href="/ladders/thebes-4p/"' in page
    # the players' rules, headings as headings and the time wheel as a table; the engine notes on their own page
    assert "<h2>How to play</h2>" in page and "<h3>Scoring</h3>" in page and '<th scope="col">knowledge</th>' in page
    assert "test_thebes" not in page and "D18" not in page, "no engine notes among the players' rules"
    assert 'href="/games/thebes/developers/"' in page
    dev = text(client.get("/games/thebes/developers/"))
    assert "<h2>Decisions from the data's notes</h2>" in dev and "test_thebes_setup" in dev and "How to play" not in dev
    page = text(client.get("/games/minos/"))
    assert "Rhadamanthus" in page and "No ladder plays Minos yet" in page
    for part in ("<h3>Goal</h3>", "<h3>What is on the table</h3>", "<h3>A round</h3>",
                 "<h3>Scoring after rounds 2 and 4</h3>", "<h3>End of the game (after round 4)</h3>"):
        assert part in page, part
    assert "position.py" not in page and "mypy" not in page, "engine notes stay on the developers' page"
    assert "position.py" in text(client.get("/games/minos/developers/"))
    assert client.get("/games/chess/developers/").status_code == 404
    assert client.get("/games/chess/").status_code == 404
    page = text(client.get("/users/owner0/"))
    assert 'href="/bots/' in page and "digger0" in page and "Thebes 4 players" in page
    assert client.get("/users/nobody/").status_code == 404
    home = text(client.get("/"))
    assert "Minos and Thebes" in home or "Thebes and Minos" in home
    assert "Minos And Thebes" not in home and "Thebes And Minos" not in home


@pytest.mark.django_db
def test_bot_page_head_to_head_average_rank_faults_and_rating_chart(client, world):
    from botregistry.models import BotVersion
    from matches.models import Participant

    bot = world["bots"][2]  # the seat with a timeout in the world's match
    page = text(client.get(f"/bots/{bot.pk}/"))
    h2h = dict(re.findall(r'<tr data-opponent="(digger\d)"><td>.*?</td><td class="num">(\d+)</td>', page))
    assert h2h == {"digger0": "6", "digger1": "6", "digger3": "6"}, "the world's match and five rated ones"
    assert "average rank" in page
    assert "1 (timeout)" in page, "the fault of its seat is shown in the match list"
    # the rating chart: the fitted rating of each version at each refit, with its 95% band, one series a version
    from matches.ratings import refit_ratings

    b0 = world["bots"][0]
    v2 = BotVersion.objects.create(bot=b0, number=2, status=BotVersion.Status.READY, sha256="c" * 64, package_dir="y")
    last = Participant.objects.filter(bot=b0, match__rated=True, elo_after__isnull=False).order_by("-match__finished_at")
    Participant.objects.filter(pk__in=[p.pk for p in last[:2]]).update(version=v2)
    refit_ratings(force=True)
    page = client.get(f"/bots/{b0.pk}/").content.decode()
    assert 'data-version="2"' in page and 'data-version="1"' in page
    assert "v2: 95% interval" in page and "v1: 95% interval" in page  # a bar at one refit, a band over several


@pytest.mark.django_db
def test_round_robin_cross_table(client, world, round_robin):
    page = client.get(f"/tournaments/{round_robin['tournament'].pk}/").content.decode()
    assert "Cross-table" in page
    ranks = {p.bot.name: p.rank for p in world["match"].participants.select_related("bot")}
    rows = dict(re.findall(r'<tr data-cross="(digger\d)">(.*?)</tr>', page, re.S))
    assert set(rows) == set(ranks)
    for name, row in rows.items():
        cells = re.findall(r"<td[^>]*>(?:<a [^>]*>)?([^<]*)(?:<span[^>]*>[^<]*</span></a>)?</td>", row)
        assert len(cells) == 4 and cells.count("—") == 1
        # a cell links to the match the two met in
        assert len(re.findall(rf'<a href="/matches/{world["match"].pk}/">', row)) == 3
        won = sum(float(c.split("/")[0]) for c in cells if "/" in c)
        assert won == sum(1 for other, r in ranks.items() if other != name and ranks[name] < r), name


@pytest.mark.django_db
def test_tournament_entries_of_another_game_are_refused_when_saved(world):
    from django.core.exceptions import ValidationError
    from django.forms.models import inlineformset_factory
    from django.utils import timezone

    from botregistry.models import Bot
    from tournaments.admin import EntryFormSet
    from tournaments.models import Entry, Tournament

    minos_bot = Bot.objects.create(owner=world["owners"][0], name="minoan", game="minos")
    t = Tournament.objects.create(name="Cup", game="thebes", players=2, starts_at=timezone.now())
    with pytest.raises(ValidationError, match="minoan plays minos, this tournament is thebes"):
        Entry(tournament=t, bot=minos_bot).full_clean()
    Entry(tournament=t, bot=world["bots"][0]).full_clean()

    FormSet = inlineformset_factory(Tournament, Entry, formset=EntryFormSet, fields=("bot",), extra=2)
    data = {"entries-TOTAL_FORMS": "2", "entries-INITIAL_FORMS": "0",
            "entries-0-bot": str(world["bots"][0].pk), "entries-1-bot": str(minos_bot.pk)}
    new = Tournament(name="Cup 2", game="thebes", players=2, starts_at=timezone.now())  # the admin's add form
    formset = FormSet(data, instance=new, prefix="entries")
    assert not formset.is_valid()
    assert "minoan (minos)" in str(formset.non_form_errors())
    data["entries-1-bot"] = str(world["bots"][1].pk)
    assert FormSet(data, instance=new, prefix="entries").is_valid()
    # changing the game of a tournament whose entries are Thebes bots is refused as well
    Entry.objects.create(tournament=t, bot=world["bots"][0])
    t.game = "minos"
    kept = {"entries-TOTAL_FORMS": "1", "entries-INITIAL_FORMS": "1",
            "entries-0-id": str(t.entries.get().pk), "entries-0-bot": str(world["bots"][0].pk)}
    assert not FormSet(kept, instance=t, prefix="entries").is_valid()


@pytest.mark.django_db
def test_favicon_log_in_landing_and_no_javascript_viewer(client, world):
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200 and resp["Content-Type"] == "image/svg+xml"
    assert 'rel="icon"' in text(client.get("/"))
    resp = client.post("/login/", {"username": "owner0", "password": "pw-123456789"})
    assert resp.status_code == 302 and resp["Location"] == "/me/"
    assert client.get(resp["Location"]).status_code == 200
    page = client.get(f"/matches/{world['match'].pk}/").content.decode()
    noscript = re.search(r"<noscript>(.*?)</noscript>", page, re.S).group(1)
    assert "needs JavaScript" in noscript and f'href="/matches/{world["match"].pk}/replay.json.gz"' in noscript


@pytest.mark.django_db
def test_hostile_bytes_in_page_filters_and_names_are_refused_not_errors(client):
    """A NUL byte (or anything a slug or a user name cannot hold) is a 400 for a filter and a 404 for a name:
    PostgreSQL refuses NUL in text, which would otherwise be a 500."""
    assert client.get("/matches/", {"ladder": "a\x00b"}).status_code == 400
    assert client.get("/matches/", {"ladder": "x" * 500}).status_code == 400
    assert client.get("/users/a%00b/").status_code == 404
    assert client.get("/users/" + "u" * 400 + "/").status_code == 404
