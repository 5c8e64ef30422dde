"""cgroup v2 hosts: the limits are written to the unified hierarchy's files and read back from them. No machine
here runs cgroup v2 with its controllers, so the hierarchy is a directory laid out like one (the kernel's part,
enforcing the limits, is what the v1 tests show on real cgroups)."""

import pytest

from arena.sandbox import SandboxLimits, SandboxUnavailable, cgroups


@pytest.fixture
def unified(tmp_path, monkeypatch):
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids rdma misc\n")
    (tmp_path / "cgroup.subtree_control").write_text("")
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cgroups, "_own_cgroups", lambda: {"": "/"})
    return tmp_path


def test_v2_limits_are_written_where_the_kernel_reads_them(unified):
    assert cgroups.is_v2()
    limits = SandboxLimits(memory_mb=256, pids=32, cpu_rate=0.5)
    cg = cgroups.BotCgroups.create("2900001", limits)
    d = unified / "arena" / "arena-2900001"
    assert cg.dirs == {"unified": d}
    assert (d / "memory.max").read_text() == str(256 * 1024 * 1024)
    assert (d / "pids.max").read_text() == "32"
    assert (d / "cpu.max").read_text() == "50000 100000"
    assert (unified / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    assert (unified / "arena" / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    assert cg.procs_files() == [str(d / "cgroup.procs")]

    (d / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n")
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\n")
    assert cg.cpu_seconds() == 1.5
    assert cg.oom_kills() == 1


def test_v2_without_delegated_controllers_is_refused(unified):
    (unified / "cgroup.controllers").write_text("cpuset io\n")
    with pytest.raises(SandboxUnavailable) as info:
        cgroups.check()
    assert "['cpu', 'memory', 'pids'] are not delegated" in str(info.value)
    assert "--no-sandbox" in str(info.value)


def test_v2_freezing_writes_cgroup_freeze(unified):
    cg = cgroups.BotCgroups.create("2900002", SandboxLimits())
    d = unified / "arena" / "arena-2900002"
    (d / "cgroup.freeze").write_text("0\n")  # the kernel makes it in every non-root cgroup (Linux >= 5.2)
    assert cg.can_freeze
    cg.freeze()
    assert (d / "cgroup.freeze").read_text() == "1"
    (d / "cgroup.events").write_text("populated 1\nfrozen 1\n")
    assert cg.frozen()
    cg.thaw()
    assert (d / "cgroup.freeze").read_text() == "0"


def test_v2_without_cgroup_freeze_does_not_freeze(unified):
    cg = cgroups.BotCgroups.create("2900003", SandboxLimits())
    assert not cg.can_freeze
    cg.freeze()  # a no-op, never an error
    assert not (unified / "arena" / "arena-2900003" / "cgroup.freeze").exists()
