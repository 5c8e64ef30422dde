"""A run that lost its claim (taken over by another worker: its host stalled past the stale threshold) still has
its bots playing until its task ends, with uids of its worker's block: its heartbeat stops beating for the run but
keeps renewing the block (arena_site.heartbeat), so the block never lapses under live bots and is never leased by
another container of this kernel, whose bots would then get the same uids (issue 24, candidates checked)."""

from __future__ import annotations

import pytest
from platform_helpers import wait_for

from arena_site import uid_blocks
from arena_site.heartbeat import Heartbeat
from arena_site.models import UidBlock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


class _LostClaim(Heartbeat):
    """A run whose claim is gone at its first beat."""

    def __init__(self) -> None:
        super().__init__("a run taken over")
        self.beats = 0

    def beat(self) -> bool:
        self.beats += 1
        return False


def test_a_run_that_lost_its_claim_keeps_its_uid_block_renewed(settings):
    settings.ARENA_HEARTBEAT_SECONDS = 0.05
    uid_blocks.ensure_block()
    held = uid_blocks._held
    assert held is not None
    block = UidBlock.objects.get(kernel=held.kernel, index=held.index)
    heartbeat = _LostClaim()
    heartbeat.start()
    try:
        wait_for(lambda: heartbeat.beats >= 1, 20, 0.05, "the first beat")
        after_claim_lost = UidBlock.objects.get(pk=block.pk).expires_at
        # renewed again after the claim was lost: the block's lease still moves ahead while the bots play on
        wait_for(lambda: UidBlock.objects.get(pk=block.pk).expires_at > after_claim_lost, 20, 0.05,
                 "a renewal of the uid block after the claim was lost")
        assert heartbeat.beats == 1, "a run that lost its claim writes no heartbeat of the run any more"
    finally:
        heartbeat.stop()
        uid_blocks.release()
    assert not heartbeat.is_alive()
