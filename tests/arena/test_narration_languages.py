"""The replay's story in Portuguese and Chinese speaks the games' own terms as their rule texts name them.

The seeds (`../shared/seeds/`): 000 Thebes in Portuguese, 001 in English, 003 in Chinese (traditional characters,
which the site writes simplified), 002 Minos in Portuguese. The tables below hold each term the narration uses
beside the seed's word; `test_*_terms_are_the_seeds_words` checks them against the seed files (when the checkout
has them beside it), and the narration tests check a seeded game told in each language uses exactly those words
for the cards, sites and actions it tells. Terms no seed gives (Minos in Chinese and English, a few Thebes cities
in Chinese) are the choices listed in the game's RULES.md ("Terms")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena import games, narration
from arena import replay as replays
from arena.games.minos import data as MD
from arena.games.thebes.narrate import CARDS

CHECKOUT = Path(__file__).resolve().parents[2]
#: shared/ beside the checkout (CI, the main checkout), or beside the folder of worktrees
SEEDS = next((p for p in (CHECKOUT.parent / "shared" / "seeds", CHECKOUT.parent.parent / "shared" / "seeds")
              if p.is_dir()), CHECKOUT.parent / "shared" / "seeds")
#: the traditional characters of seed 003's terms → the simplified ones the site writes
T2S = str.maketrans("識傳車飛討會議覽塵臘島亞達華", "识传车飞讨会议览尘腊岛亚达华")

#: Thebes: card kind / site / city → (Portuguese as seed 000 names it, Chinese as seed 003 names it, traditional)
THEBES = {
    "specialized_knowledge": ("conhecimento específico", "特殊知識"),
    "general_knowledge": ("conhecimento geral", "一般知識"),
    "rumors": ("rumores e lendas", "傳言"),
    "assistant": ("assistente", "助手"),
    "shovel": ("pá", "挖掘工具"),
    "car": (None, "汽車"),  # the Portuguese seed does not name it: "carro" (RULES.md)
    "zeppelin": (None, "飛船"),  # "zepelim"
    "special_permission": (None, "特殊挖掘"),  # the Portuguese seed quotes the English card: "escavação especial"
    "congress": ("congresso", "研討會議"),
    "exhibition": ("exibição", "展覽"),
    "greece": ("Grécia", "希臘"), "crete": ("Creta", "克里特島"), "egypt": ("Egito", "埃及"),
    "palestine": ("Palestina", "巴勒斯坦"), "mesopotamia": ("Mesopotâmia", "美索不達米亞"),
    "berlin": ("Berlim", None), "london": ("Londres", None), "moscow": ("Moscovo", None), "paris": ("Paris", None),
    "rome": ("Roma", None), "vienna": ("Viena", None), "warsaw": ("Warsaw", "華沙"),
}
#: Minos (seed 002, Portuguese): the draft's actions, the pieces and the things a turn names
MINOS = {
    "prepare": "Preparar", "develop": "Desenvolver", "build": "Construir", "expand": "Expandir", "wild": "Curinga",
    "city": "Cidade", "farm": "Fazenda", "tower": "Torre", "ship": "Navio", "warrior": "Guerreiro",
    "sea_peoples": "Povos do Mar", "vase": "Vaso", "palace": "Palácio", "trait": "Traço Real",
}


def seed_text(number: str) -> str:
    found = sorted(SEEDS.glob(f"{number}_*.txt"))
    if not found:
        pytest.skip(f"the seeds are not beside this checkout ({SEEDS})")
    return found[0].read_text(encoding="utf-8")


@pytest.mark.outside_checkout
def test_thebes_terms_are_the_seeds_words():
    pt, zh = seed_text("000").lower(), seed_text("003")
    for key, (portuguese, chinese) in THEBES.items():
        if portuguese:
            assert portuguese.lower() in pt, f"{key}: {portuguese!r} is not seed 000's word"
        if chinese:
            assert chinese in zh, f"{key}: {chinese!r} is not seed 003's word"


@pytest.mark.outside_checkout
def test_minos_terms_are_the_seeds_words():
    pt = seed_text("002")
    for key, portuguese in MINOS.items():
        assert portuguese in pt, f"{key}: {portuguese!r} is not seed 002's word"


def told(game_name: str, players: int, seed: int, language: str) -> tuple[dict, dict]:
    game = games.load(game_name, players=players)
    policies = [games.policies(game_name)["random"]() for _ in range(players)]
    names = [f"p{i}" for i in range(players)]
    replay = replays.of_selfplay(game, seed, policies, [random.Random(seed)] * players, names)
    frames = replays.frames(replay, None)
    return replay, narration.story(game_name, frames, names, language)


def _thebes_words(language: str) -> dict[str, str]:
    column = 0 if language == "pt-br" else 1
    chosen = {"car": ("carro", "汽车"), "zeppelin": ("zepelim", "飞船"),
              "special_permission": ("escavação especial", "特殊挖掘"), "berlin": ("Berlim", "柏林"),
              "london": ("Londres", "伦敦"), "moscow": ("Moscovo", "莫斯科"), "paris": ("Paris", "巴黎"),
              "rome": ("Roma", "罗马"), "vienna": ("Viena", "维也纳")}
    out = {}
    for key, words in THEBES.items():
        word = words[column]
        out[key] = (word.translate(T2S) if column else word) if word else chosen[key][column]
    return out


@pytest.mark.parametrize("language", ["pt-br", "zh-hans"])
def test_thebes_story_names_cards_sites_and_actions_by_the_seeds_words(language):
    words = _thebes_words(language)
    replay, story = told("thebes", 4, 11, language)
    english = told("thebes", 4, 11, "en")[1]
    seen = set()
    for frame, turn, en in zip(replays.frames(replay, None)[1:], story["turns"][1:], english["turns"][1:]):
        assert turn["text"] != en["text"], f"not translated: {turn['text']}"
        for e in frame["events"]:
            if e.get("type") == "card_taken":
                kind = "exhibition" if e["card"].startswith("X") else CARDS[e["card"]]["kind"]
                assert words[kind] in turn["text"], (kind, turn["text"])
                seen.add(kind)
            elif e.get("type") == "tokens_drawn":
                assert words[e["site"]] in turn["text"], (e["site"], turn["text"])
                assert ("escava" if language == "pt-br" else "挖掘") in turn["text"]
                seen.add(e["site"])
            elif e.get("type") == "travelled":
                assert words[e["from"]] in turn["text"] and words[e["to"]] in turn["text"], turn["text"]
                seen.update((e["from"], e["to"]))
    assert len(seen) >= 10, f"the game told too little to test: {sorted(seen)}"
    assert story["turns"][-1]["scoring"] == ("pontuação final" if language == "pt-br" else "最终计分")


def test_minos_story_in_portuguese_names_actions_and_pieces_by_the_seeds_words():
    replay, story = told("minos", 3, 5, "pt-br")
    frames = replays.frames(replay, None)
    seen = set()
    for frame, turn in zip(frames[1:], story["turns"][1:]):
        kind, *args = (frame.get("action") or "").split(":")
        if kind == "draft":
            assert MINOS[args[1]] in turn["text"], turn["text"]
            seen.add(args[1])
        elif kind in ("farm", "city", "tower"):
            assert MINOS[kind] in turn["text"], turn["text"]
            seen.add(kind)
        elif kind == "extra" and args[0] == "fight":
            assert MINOS["sea_peoples"] in turn["text"], turn["text"]
        elif kind == "trait":
            assert MINOS["trait"] in turn["text"], turn["text"]
        elif kind in ("palace", "move"):
            assert MINOS["palace"] in turn["text"], turn["text"]
    assert {"prepare", "develop", "build", "expand"} <= seen, sorted(seen)
    vases = [line for t in story["turns"] for line in t["lines"] if MD.VASES and "Vaso" in line]
    assert all("PV" in line for line in vases)


@pytest.mark.parametrize("language,marks", [("en", ["Round", "Setup is done"]),
                                            ("pt-br", ["Começa a rodada", "A preparação terminou"]),
                                            ("zh-hans", ["轮开始", "准备完成"])])
def test_minos_story_is_told_in_each_language(language, marks):
    _, story = told("minos", 1, 3, language)
    lines = " ".join(line for t in story["turns"] for line in t["lines"])
    for mark in marks:
        assert mark in lines, (mark, lines[:300])
    assert story["series"][-1] == "Rhadamanthus"  # names stay names
    assert story["part_names"]  # and the score parts are named in the language
    if language != "en":
        assert "farms" not in story["part_names"].values()
