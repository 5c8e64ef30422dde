"""The kinds of bot process and of cgroup layout: `launch` gives a SandboxedBot or a PlainBot, the host's layout
gives CgroupsV1 or CgroupsV2, and a sweeper finds a dead referee's cgroups by their record whichever layout made
them. The layouts are tested on directories laid out like each hierarchy (the kernel's part is what the real-cgroup
tests show), so both run on any host."""

from __future__ import annotations

import pytest
from sandbox_helpers import PYTHON, requires_sandbox

from arena.sandbox import PlainBot, SandboxedBot, SandboxLimits, cgroups, launch


@pytest.fixture
def unified(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    root.mkdir()
    (root / "cgroup.controllers").write_text("cpu memory pids\n")
    (root / "cgroup.subtree_control").write_text("")
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", root)
    monkeypatch.setattr(cgroups, "_own_cgroups", lambda: {"": "/"})
    return root


@pytest.fixture
def v1(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    for hierarchy in ("memory", "pids", "cpu,cpuacct", "freezer"):
        (root / hierarchy).mkdir(parents=True)
        (root / hierarchy / "cgroup.procs").write_text("")
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", root)
    monkeypatch.setattr(cgroups, "_own_cgroups",
                        lambda: dict.fromkeys(("memory", "pids", "cpu", "cpuacct", "freezer"), "/"))
    return root


def test_a_v1_host_gets_cgroups_v1(v1):
    cg = cgroups.BotCgroups.locate("2900010")
    assert isinstance(cg, cgroups.CgroupsV1) and not cg.v2
    assert set(cg.dirs) == {"memory", "pids", "cpu", "cpuacct", "freezer"}
    assert cg.dirs["cpu"] == cg.dirs["cpuacct"]  # one hierarchy for both


def test_in_a_docker_container_on_v1_the_bots_cgroups_go_under_the_containers_own(v1, monkeypatch):
    """Docker on cgroup v1 mounts only the container's own cgroup, /docker/<id> of the host's hierarchy, at
    /sys/fs/cgroup/<controller>, while /proc/self/cgroup names the host's path (issue 24): the bots' cgroups
    are made in the mount itself, not under a /docker/<id> folder that does not exist in the container."""
    own = "/docker/4f2a9c"
    monkeypatch.setattr(cgroups, "_own_cgroups", lambda: dict.fromkeys(("memory", "pids", "cpu", "cpuacct",
                                                                          "freezer"), own + "/celery"))
    monkeypatch.setattr(cgroups, "_mount_roots",
                        lambda: {str((v1 / h).resolve()): own for h in ("memory", "pids", "cpu,cpuacct", "freezer")})
    cg = cgroups.BotCgroups.locate("2900010")
    assert cg.dirs["memory"] == (v1 / "memory").resolve() / "celery" / "arena" / "arena-2900010"
    assert cg.dirs["cpu"] == (v1 / "cpu,cpuacct").resolve() / "celery" / "arena" / "arena-2900010"
    # a process outside the mounted tree (no container) keeps the host's path below the mount
    monkeypatch.setattr(cgroups, "_mount_roots", lambda: {})
    assert cgroups.BotCgroups.locate("2900010").dirs["pids"] == (v1 / "pids").resolve() / own.lstrip("/") / \
        "celery" / "arena" / "arena-2900010"


def test_a_v2_host_gets_cgroups_v2(unified):
    cg = cgroups.BotCgroups.locate("2900010")
    assert isinstance(cg, cgroups.CgroupsV2) and cg.v2
    assert cg.dirs == {"unified": unified / "arena" / "arena-2900010"}


def test_v1_limits_freezer_and_counts_are_its_own_files(v1):
    cg = cgroups.BotCgroups.create("2900011", SandboxLimits(memory_mb=128, pids=16, cpu_rate=0.25))
    d = lambda hierarchy: v1 / hierarchy / "arena" / "arena-2900011"  # noqa: E731
    assert (d("memory") / "memory.limit_in_bytes").read_text() == str(128 * 1024 * 1024)
    assert (d("pids") / "pids.max").read_text() == "16"
    assert (d("cpu,cpuacct") / "cpu.cfs_quota_us").read_text() == "25000"
    assert cg.can_freeze
    cg.freeze()
    assert (d("freezer") / "freezer.state").read_text() == "FROZEN"
    cg.thaw()
    assert (d("freezer") / "freezer.state").read_text() == "THAWED"
    (d("cpu,cpuacct") / "cpuacct.usage").write_text("2500000000\n")
    (d("memory") / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert cg.cpu_seconds() == 2.5 and cg.oom_kills() == 2


def test_v2_kill_all_uses_cgroup_kill_and_the_one_kill_loop(unified):
    cg = cgroups.BotCgroups.create("2900012", SandboxLimits())
    d = unified / "arena" / "arena-2900012"
    (d / "cgroup.kill").write_text("0")
    (d / "cgroup.procs").write_text("")
    assert cg.kill_all(timeout=0.1)
    assert (d / "cgroup.kill").read_text() == "1"


@pytest.mark.parametrize("layout", ["unified", "v1"])
def test_a_record_brings_back_the_layout_that_made_it(layout, request, tmp_path):
    request.getfixturevalue(layout)
    cg = cgroups.BotCgroups.create("2900013", SandboxLimits())
    state = tmp_path / "state"
    cg.save_record(state)
    again = cgroups.BotCgroups.from_record("2900013", state)
    assert type(again) is type(cg) and again == cg
    cg.drop_record(state)
    assert cgroups.BotCgroups.from_record("2900013", state) is None


def test_a_plain_bot_is_a_plain_process(make_bot_dir):
    bot = launch(make_bot_dir("listen.py"), [PYTHON, "bot.py"], None, SandboxLimits(), sandbox=False)
    try:
        assert isinstance(bot, PlainBot) and not bot.sandboxed
        assert bot.cgroups is None and bot.uid is None and not bot.can_freeze
        bot.freeze()  # a no-op: nothing to freeze a plain process with
        assert bot.wait_for_socket(10)
    finally:
        bot.close()
    assert bot.poll() is not None and bot.exit_reason() == "stopped by the referee"


@pytest.mark.sandbox
@requires_sandbox
def test_a_sandboxed_bot_has_its_uid_and_cgroups(make_bot_dir):
    bot = launch(make_bot_dir("listen.py"), [PYTHON, "bot.py"], None, SandboxLimits())
    try:
        assert isinstance(bot, SandboxedBot) and bot.sandboxed
        assert bot.uid is not None and bot.cgroups is not None
        assert bot.wait_for_socket(10)
        assert bot.cgroups.pids()  # its processes, in its own cgroups
    finally:
        bot.close()
    assert bot.exit_reason() == "stopped by the referee"
