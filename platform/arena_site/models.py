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


class WorkerDisk(models.Model):
    """The free space of one machine's working folder (`ARENA_LOCAL_DIR`), as the workers there last reported it
    (`arena_site.disk_reports`): the low-storage check reads these, not the disk of whichever process runs it."""

    machine = models.CharField(max_length=200, help_text="The reporting process's host and pid namespace.")
    folder = models.CharField(max_length=1000, help_text="The working folder measured, on that machine.")
    free_mb = models.FloatField()
    reported_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["machine", "folder"], name="worker_disk_unique_folder")]

    def __str__(self) -> str:
        return f"{self.machine}:{self.folder}: {self.free_mb:.0f} MB free"
