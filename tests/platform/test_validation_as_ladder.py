"""The validation's smoke match is a ladder match as the bot sees it (issue 22, item 5): seats named `<bot> v<n>`,
opponents the built-in bots that play on the ladder, a ladder's player count and time control. A bot that plays
well only when it recognises its validation (opponents named random-1, its manifest's name, the default clock)
and faults on the ladder now faults in its validation too, and fails it."""

from __future__ import annotations

import re

import pytest
from platform_helpers import ROOT, bot_files, upload, zip_bytes

# faults on purpose (an illegal answer) whenever the table looks like a ladder's: every seat named "<bot> v<n>",
# and the ladder's clock
SNIFFER = b'''import re

from arena_bot import Bot, run


class Sniffer(Bot):
    def start(self, request):
        super().start(request)
        self.ladder = (all(re.search(r" v[0-9]+$", name) for name in self.players)
                       and self.time_control.decision_ms == 1500)

    def decide(self, request):
        return 10_000 if self.ladder else self.rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    run(Sniffer())
'''


@pytest.fixture(autouse=True)
def storage(settings, tmp_path):
    settings.STORAGE_DIR = tmp_path
    return tmp_path


@pytest.fixture
def ladder(db):
    from botregistry.services import register_builtin
    from ladders.models import Ladder

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2, decision_ms=1500,
                                   bank_ms=9000)
    register_builtin(ROOT / "bots" / "python" / "random")  # the house bot that plays on the ladder
    return ladder


def validated(client_for, make_user, files: dict[str, bytes]):
    from botregistry.models import Bot, BotVersion
    from botregistry.tasks import validate_version

    owner = make_user()
    bot = Bot.objects.create(owner=owner, name="sniffer", game="thebes")
    response = upload(client_for(owner), bot.pk, zip_bytes(files))
    assert response.status_code == 201, response.content
    validate_version(response.json()["id"])
    return BotVersion.objects.get(pk=response.json()["id"])


def test_a_bot_that_faults_only_on_the_ladder_fails_its_validation(ladder, client_for, make_user):
    files = {**bot_files(name="sniffer"), "bot.py": SNIFFER}
    version = validated(client_for, make_user, files)
    assert version.status == "failed", version.validation_log
    assert version.status_reason.startswith("the bot answered illegal actions in the smoke match")


def test_the_smoke_match_is_played_at_the_ladders_table(ladder, client_for, make_user):
    version = validated(client_for, make_user, bot_files(name="plain"))
    assert version.status == "ready", version.validation_log
    found = re.search(r"smoke match: thebes, 2 players, .*; 1500 ms per decision \+ 9000 ms bank",
                      version.validation_log)
    assert found, version.validation_log
