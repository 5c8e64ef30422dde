"""The ladder page shows the built-in bots' levels ("beat level 2") and marks them on the leaderboard."""

from __future__ import annotations

import re

from botregistry.levels import level_of


def test_level_is_read_only_from_a_built_in_bots_name():
    assert level_of("python-mcts-level2-thebes", builtin=True) == 2
    assert level_of("python-mcts-level3", builtin=True) == 3
    assert level_of("python-mcts-level2-thebes", builtin=False) is None  # a user's bot never reads as a level
    assert level_of("python-greedy-thebes", builtin=True) is None
    assert level_of("python-levelheaded", builtin=True) is None


def test_ladder_page_lists_levels_to_beat_and_tags_them_on_the_board(client, world):
    from botregistry.models import Bot
    from botregistry.services import house_user
    from ladders.models import Ladder, Rating

    ladder = Ladder.objects.get(slug="thebes-4p")
    house = house_user()
    for level, rating in ((2, 1590), (1, 1450)):  # level 2 sits between digger0 (1620) and digger1 (1580)
        bot = Bot.objects.create(owner=house, name=f"python-mcts-level{level}-thebes", game="thebes", builtin=True)
        Rating.objects.create(ladder=ladder, bot=bot, elo=rating, rating=rating, games=50, wins=20)
    impostor = Bot.objects.create(owner=world["bots"][0].owner, name="my-level9-thebes", game="thebes")
    Rating.objects.create(ladder=ladder, bot=impostor, elo=1300, rating=1300, games=5, wins=1)

    html = client.get("/ladders/thebes-4p/").content.decode()
    page = re.sub(r"\s+", " ", html)
    assert "Levels to beat" in page
    assert "Beat level 1, then level 2." in page
    levels = re.findall(r"<li><strong>Level (\d)</strong>: <a [^>]*>([^<]+)</a>, rank (\d+)", page)
    assert levels == [("1", "python-mcts-level1-thebes", "6"), ("2", "python-mcts-level2-thebes", "2")]
    rows = dict(re.findall(r'<tr data-bot="([^"]+)">(.*?)</tr>', html, re.S))
    assert "built-in" in rows["python-mcts-level2-thebes"] and "level 2" in rows["python-mcts-level2-thebes"]
    assert "level" not in re.sub(r"my-level9-thebes", "", rows["my-level9-thebes"])
    assert "built-in" not in rows["digger0"]


def test_ladder_without_levelled_bots_has_no_levels_section(client, world):
    page = client.get("/ladders/thebes-4p/").content.decode()
    assert "Levels to beat" not in page
