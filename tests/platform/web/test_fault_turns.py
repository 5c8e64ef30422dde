"""One numbering for a fault's turn: the API's `faults[].turn`, the match page's link and the viewer's frame index
all say turn 13 for the decision with index 12 (turn 0 is the start position)."""


def test_api_and_match_page_name_the_viewers_turn(world, client):
    from rest_framework.test import APIClient

    match = world["match"]  # seat 2 timed out at decision 12
    detail = APIClient().get(f"/api/matches/{match.pk}/").json()
    fault = detail["participants"][2]["faults"][0]
    assert fault["decision"] == 12 and fault["turn"] == 13
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'href="#turn=13"' in page and ">turn 13<" in page
    assert "decision 12" not in page
    # the viewer's frame 13 is the position after that decision, carrying its fault
    frames = client.get(f"/matches/{match.pk}/frames.json?seat=all").json()["frames"]
    assert frames[13]["fault"]["kind"] == "timeout" and frames[12]["fault"] is None


def test_bot_page_counts_faults_per_match_and_per_kind(world, client):
    bot = world["bots"][2]
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "Faults in its last" in page and "timeout 1" in page
    assert f'/matches/{world["match"].pk}/#turn=13' in page
