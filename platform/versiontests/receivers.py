"""The version tests' part in deleting an account (`accounts.signals.account_deleting`): the person's running
tests stop (their queued matches are cancelled, `services.stop`); other owners' tests that drew one of the
person's bots as an opponent play their pairs already queued, and draw no retired bot again."""

from __future__ import annotations

from django.dispatch import receiver

from accounts.signals import account_deleting

from . import services
from .models import VersionTest


@receiver(account_deleting, dispatch_uid="versiontests.stop_tests")
def stop_tests(sender, user, **kwargs) -> None:
    for test_id in VersionTest.objects.filter(owner_id=user.pk, status=VersionTest.Status.RUNNING) \
            .values_list("pk", flat=True):
        services.stop(test_id, "stopped: its owner deleted their account")
