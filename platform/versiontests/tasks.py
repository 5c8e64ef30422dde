"""Celery: after every version-test match the worker advances its test at once; `tick` (beat) is the safety
net for a hook a dead worker never ran."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver

from matches.signals import match_ended

from . import services


@shared_task(name="versiontests.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@receiver(match_ended)
def _after_match(sender, match_id: int, **_) -> None:
    from django.db.models import Q

    from .models import Pair

    tid = Pair.objects.filter(Q(match_a_id=match_id) | Q(match_b_id=match_id)).values_list(
        "test_id", flat=True).first()
    if tid is not None:
        services.advance(tid)
