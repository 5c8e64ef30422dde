"""The site's own table: which worker process holds which sandbox uid block of which kernel
(`arena_site.uid_blocks`)."""

from django.db import models


class UidBlock(models.Model):
    """Block `index` of the sandbox uids of kernel `kernel` (`arena.sandbox.uids.block_range`), leased by
    `holder` (`arena_site.workers.worker_id`) until `expires_at`; free when it has expired, its holder is empty
    or known dead."""

    kernel = models.CharField(max_length=64, help_text="The kernel's boot id (arena.sandbox.uids.kernel_id).")
    index = models.PositiveIntegerField()
    holder = models.CharField(max_length=200, blank=True, default="")
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kernel", "index"], name="uid_block_unique_per_kernel")]

    def __str__(self) -> str:
        return f"uid block {self.index} of {self.kernel[:8]}: {self.holder or 'free'}"
