"""Every kit carries the debug annotation (DecideResponse.annotation) and the bot's output to the owner's log of
the turn: a Node bot and the C++ kit's random bot, played sandboxed; the referee keeps both beside the replay."""

from __future__ import annotations

from pathlib import Path

from arena import botbuild, botlogs
from arena.match import BotSpec, run_match

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "python" / "random"


def _logs(bot: Path, tmp_path: Path) -> tuple:
    replay = tmp_path / "m.replay.json.gz"
    result = run_match("thebes", {"players": 2}, 9, [BotSpec(str(bot)), BotSpec(str(RANDOM))], replay_path=str(replay))
    return result, botlogs.load(botlogs.logs_path(replay))["seats"][0]


def test_node_kit_annotates_and_logs_by_turn_with_the_stack_of_an_exception(tmp_path):
    bot = tmp_path / "nodebot"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "nodebot"\ngames = ["thebes"]\nruntime = "node"\n'
                                  'command = ["node", "bot.js"]\n')
    (bot / "bot.js").write_text("""
const { run } = require('arena-bot');
let asked = 0;
run({
  decide(request, bot) {
    asked += 1;
    console.error(`thinking about decision ${request.decision}`);
    if (asked === 2) throw new Error('my node policy has a bug');
    bot.annotate(`node plan ${request.decision}`);
    return 0;
  },
});
""")
    result, seat = _logs(bot, tmp_path)
    first, second = seat["decisions"][:2]
    assert first["annotation"] == f"node plan {first['decision']}"
    assert f"thinking about decision {first['decision']}" in first["output"]
    assert "Error: my node policy has a bug" in second["output"] and "bot.js" in second["output"]  # the stack
    assert second["annotation"] == ""
    assert [f.kind for f in result.seats[0].faults] == ["malformed"]


def test_cpp_kit_random_bot_annotates_its_decisions(tmp_path):
    cpp = ROOT / "bots" / "cpp" / "random"
    botbuild.ensure_built(cpp)
    result, seat = _logs(cpp, tmp_path)
    assert result.seats[0].faults == []
    assert seat["decisions"] and all(d["annotation"].startswith("random among ") for d in seat["decisions"])
