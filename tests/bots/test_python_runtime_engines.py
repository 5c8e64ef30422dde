"""The bots' Python runtime carries the compiled game engines (`arena runtimes install` builds them for its own
interpreter), so a bot's forward model runs them in the sandbox; when they cannot load there, the bot gets the
pure-Python engines and a line on its stderr saying why, and plays on. The SDK's rollout policies
(`arena_bot.rollout`, what the built-in search bots play their rollouts with) are the engine's, compiled with it.
Played in the sandbox, as on the platform."""

from pathlib import Path

from arena.match import BotSpec, run_match

REPO = Path(__file__).resolve().parents[2]

# `block` makes the compiled engines' shared library fail to import, as a build for another Python would
_BOT = """
import sys
if {block!r}:
    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.startswith("arena.games._engines__mypyc"):
                raise ImportError("blocked by the test")
            return None
    sys.meta_path.insert(0, Block())
import arena.games
import arena.games.thebes.state as state
import arena.games.minos.rollout as minos_rollout
import arena.games.thebes.rollout as thebes_rollout
import arena_bot.rollout
print("engine:", arena.games.ENGINE, state.__spec__.origin.rsplit(".", 1)[-1], flush=True)
# the SDK's rollout policies (the built-in search bots' rollouts) are the engine's, compiled with it
assert arena_bot.rollout.ThebesRollout is thebes_rollout.ThebesRollout
assert arena_bot.rollout.MinosRollout is minos_rollout.MinosRollout
print("rollouts:", thebes_rollout.__spec__.origin.rsplit(".", 1)[-1],
      minos_rollout.__spec__.origin.rsplit(".", 1)[-1], flush=True)
from arena_bot import Bot, run
from arena_bot.forward import determinize

class B(Bot):
    def decide(self, request):
        sample = determinize(request, self.rng)  # the forward model works on either engine
        return len(sample.legal_actions()) - 1

run(B())
"""


def _startup_output(tmp_path: Path, block: bool) -> str:
    from arena import botlogs

    folder = tmp_path / ("blocked" if block else "plain")
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "engines"\ngames = ["thebes"]\nruntime = "python"\n'
                                     'command = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text(_BOT.format(block=block))
    replay = tmp_path / f"{folder.name}.replay.json.gz"
    result = run_match("thebes", {"players": 2}, 5, [BotSpec(str(folder)), BotSpec(str(REPO / "bots/python/random"))],
                       replay_path=str(replay))
    assert result.seats[0].faults == [], result.seats[0].faults
    return botlogs.load(botlogs.logs_path(replay))["seats"][0]["startup"]


def test_the_sandboxed_python_runtime_loads_the_compiled_engines(tmp_path):
    out = _startup_output(tmp_path, block=False)
    assert "engine: compiled so" in out, out
    assert "rollouts: so so" in out, out
    assert "pure-Python engines" not in out


def test_the_runtime_falls_back_to_the_pure_engines_and_says_so(tmp_path):
    out = _startup_output(tmp_path, block=True)
    assert "engine: pure py" in out, out
    assert "rollouts: py py" in out, out
    assert "using the pure-Python engines" in out and "blocked by the test" in out
