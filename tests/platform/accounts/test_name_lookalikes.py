"""Look-alike names (`accounts.names.skeleton`): digits and signs that pass for letters (0 → o, 1 → i/l, 3 → e,
4 → a, 5 → s, 7 → t, @ → a, $ → s) and letter pairs that pass for one (rn → m, vv → w) read as the reserved words
and protected names they imitate, for user names, bot names and team names alike, while ordinary names pass."""

from __future__ import annotations

import pytest

from accounts.names import RESERVED_WORDS, impersonation, legacy_skeleton, skeleton

ORDINARY = ["alice", "bob", "Carol", "dave99", "mallory", "trent", "player1", "bot2024", "team 42", "x86", "r2d2",
            "c3po", "agent007", "l33t", "Minimax", "mcts-bot", "greedy_v2", "deep thinker", "Kernel", "learner",
            "Hornet", "savvy", "Vivian", "Blue Owls", "Red Team", "Los Alamos", "random-walker", "alpha-beta",
            "Marina", "Darnell", "Ada Lovelace", "Quentin", "z3r0", "ninja", "Mia", "liam", "Olivia", "Noah", "Ava"]

LOOKALIKES = {
    "admin": ["adm1n", "4dmin", "@dmin", "adm!n", "ADM1N", "AdmIn", "adrnin", "4drn1n", "the-adm1n", "xX_4dm1n_Xx"],
    "arena": ["4rena", "ar3na", "@r3n@", "4r3n4", "arena1", "AR3NA", "a r 3 n a"],
    "staff": ["5taff", "$taff", "st4ff", "57aff", "5T4FF", "s-t-4-f-f"],
    "official": ["0fficial", "off1c1al", "0ff1c14l", "offic1al", "off!c!@l", "0FF1C1AL"],
}


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_are_not_reserved(name, db):
    assert impersonation(name, ["random", "greedy-bot", "root"]) is None


@pytest.mark.parametrize("word,name", [(w, n) for w, names in LOOKALIKES.items() for n in names])
def test_look_alikes_of_each_reserved_word_are_reserved(word, name, db):
    assert word in RESERVED_WORDS
    assert impersonation(name, []) == f"names containing '{word}' are reserved for the platform"


@pytest.mark.parametrize("name,other", [("randorn", "random"), ("rand0m", "random"), ("vvalter", "walter"),
                                        ("r0ot", "root"), ("gr33dy", "greedy"), ("5ally", "sally"),
                                        ("B1LL", "bill"), ("blll", "bill")])
def test_look_alikes_of_protected_names_are_refused(name, other, db):
    assert impersonation(name, [other]) is not None
    assert skeleton(name) == skeleton(other)


def test_distinct_names_keep_distinct_skeletons():
    assert len({skeleton(n) for n in ORDINARY}) == len(ORDINARY)
    assert skeleton("bot 2") != skeleton("bot 3") != skeleton("bot 4")


def test_a_name_reserved_by_the_earlier_skeleton_stays_reserved(db):
    """Deleted accounts' names are kept as a digest of their skeleton: those kept before the digits were read as
    letters still hold (accounts.names.legacy_skeleton)."""
    from accounts.models import RetiredName
    from accounts.names import name_digest

    RetiredName.objects.create(digest=name_digest(legacy_skeleton("lisa5")))
    assert legacy_skeleton("lisa5") != skeleton("lisa5")
    assert impersonation("lisa5", []) is not None
    assert impersonation("Lisa5", []) is not None
    assert impersonation("lisa6", []) is None


@pytest.mark.parametrize("name", ["deleted team", "Deleted Team 7", "deleted-13", "de1eted account", "DELETED-57"])
def test_names_that_read_as_deleted_ones_are_reserved(name, db):
    assert impersonation(name, []) is not None


def test_sign_up_bot_and_team_names_refuse_look_alikes(client_for, make_user, db):
    from teams import services

    user = make_user("someone")
    signup = client_for().post("/api/auth/signup/", {"username": "adm1n", "password": "pw-123456789abc",
                                                     "email": "a@example.org"}, format="json")
    assert signup.status_code == 400, signup.content
    bot = client_for(user).post("/api/bots/", {"name": "5taff-bot", "game": "thebes"}, format="json")
    assert bot.status_code == 400 and "staff" in bot.content.decode()
    with pytest.raises(services.TeamRefused, match="arena"):
        services.create_team(user, "Team 4r3n4")
    services.create_team(user, "Team 42")  # an ordinary name


def test_existing_team_skeletons_are_recomputed_by_the_migration(db):
    import importlib

    from django.apps import apps

    from teams.models import Team

    team = Team.objects.create(name="Sl1me", slug="sl1me")
    Team.objects.filter(pk=team.pk).update(skeleton="sllme-old")
    importlib.import_module("teams.migrations.0003_skeletons_read_digits_as_letters").recompute(apps, None)
    assert Team.objects.get(pk=team.pk).skeleton == skeleton("Slime") == skeleton("SLIME")
