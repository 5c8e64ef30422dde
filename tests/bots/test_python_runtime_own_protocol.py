"""The Python runtime never shadows a bot's own code: a bot that brings its own `arena.v1` modules (generated from
the .proto by protoc, which writes no __init__.py) imports its own, not the runtime's; a bot without them gets the
runtime's. Played in the sandbox, as on the platform."""

import shutil
from pathlib import Path

from arena.match import BotSpec, run_match

REPO = Path(__file__).resolve().parents[2]


def _bot(folder: Path, own_protocol: bool) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "ownproto"\ngames = ["thebes"]\nruntime = "python"\n'
                                     'command = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text(
        "from arena.v1 import arena_pb2\n"
        "print('own protocol code:', getattr(arena_pb2, 'OWN_COPY', False), flush=True)\n"
        "from arena_bot import Bot, run\n\n"
        "class B(Bot):\n"
        "    def decide(self, request):\n"
        "        return 0\n\n"
        "run(B())\n")
    if own_protocol:
        gen = folder / "arena" / "v1"
        gen.mkdir(parents=True)
        for module in (REPO / "arena" / "v1").glob("*_pb2*.py"):  # what protoc makes: no __init__.py
            shutil.copy(module, gen / module.name)
        with open(gen / "arena_pb2.py", "a") as f:
            f.write("\nOWN_COPY = True\n")
    return folder


def _startup_output(bot: Path, tmp_path: Path) -> str:
    from arena import botlogs

    replay = tmp_path / f"{bot.name}.replay.json.gz"
    result = run_match("thebes", {"players": 2}, 5, [BotSpec(str(bot)), BotSpec(str(REPO / "bots/python/random"))],
                       replay_path=str(replay))
    assert result.seats[0].faults == [], result.seats[0].faults
    return botlogs.load(botlogs.logs_path(replay))["seats"][0]["startup"]


def test_a_bots_own_generated_protocol_code_is_the_one_imported(tmp_path):
    assert "own protocol code: True" in _startup_output(_bot(tmp_path / "own", True), tmp_path)


def test_a_bot_without_its_own_gets_the_runtimes(tmp_path):
    assert "own protocol code: False" in _startup_output(_bot(tmp_path / "plain", False), tmp_path)
