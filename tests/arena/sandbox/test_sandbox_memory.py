"""A bot allocating without bound is killed by the OOM killer at its memory limit, and told so."""

import pytest
from sandbox_helpers import requires_sandbox, wait_exit

from arena.sandbox import SandboxLimits

pytestmark = [pytest.mark.sandbox, requires_sandbox]


def test_memory_bomb_is_oom_killed(run_program):
    limits = SandboxLimits(memory_mb=64)
    bot = run_program("memory_bomb.py", limits)
    assert wait_exit(bot, 10) == 128 + 9
    assert bot.exit_reason() == "killed by the OOM killer (memory limit 64 MB)"
    bot.close()
    assert bot.exit_reason() == "killed by the OOM killer (memory limit 64 MB)"  # still known once cleaned up
