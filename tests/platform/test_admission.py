"""Admission (arena_site.admission, issue 21): a host plays only as many matches at once as it has match slots,
counted across every worker process of the host; a worker that dies gives its slot back."""

import subprocess
import sys

import pytest
from platform_helpers import make_bot

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(600)
"""


@pytest.fixture
def one_slot(settings, tmp_path):
    settings.ARENA_MATCH_SLOTS = 1
    settings.ARENA_ADMISSION_DIR = tmp_path
    return tmp_path / "slot-0"


def hold_from_another_process(path):
    """Another worker process of the host holding the slot (until killed)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_match_waits_while_another_process_holds_the_slot_and_gets_it_once_that_process_dies(one_slot):
    from arena_site import admission

    holder = hold_from_another_process(one_slot)
    try:
        with admission.match_slot(wait_s=0.3) as admitted:
            assert not admitted
    finally:
        holder.kill()  # a worker killed mid-match: the kernel drops its lock
        holder.wait()
    with admission.match_slot(wait_s=5) as admitted:
        assert admitted
        with admission.match_slot(wait_s=0.3) as second:  # the host's only slot is taken now
            assert not second


def test_the_default_slots_follow_the_cores_and_the_cores_a_match_needs(settings):
    from arena_site import admission

    settings.ARENA_MATCH_SLOTS = 0
    settings.ARENA_CORES_PER_MATCH = 1.0
    assert admission.slots() == max(1, admission.host_cores())
    settings.ARENA_CORES_PER_MATCH = 1000.0
    assert admission.slots() == 1  # never none


def test_a_task_without_a_slot_hands_its_match_back_to_the_broker_unclaimed(one_slot, settings, make_user,
                                                                            monkeypatch):
    from ladders.models import Ladder
    from matches import services, tasks
    from matches.models import Match

    settings.ARENA_ADMISSION_WAIT_SECONDS = 0.3
    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = services.create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder,
                                  queue=False, versions=[a.active_version_id, b.active_version_id])
    sent = []
    monkeypatch.setattr(services, "send", sent.append)
    holder = hold_from_another_process(one_slot)
    try:
        assert tasks.run_match.run(match.pk).startswith("deferred")
    finally:
        holder.kill()
        holder.wait()
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED and match.attempts == 0 and sent == [match.pk]
