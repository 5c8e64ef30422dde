"""Celery: when a version-test match ends (`matches.signals.match_ended`, sent once its ending commits) its test
advances at once; `tick` (beat) is the safety net for an announcement lost with a worker."""

from __future__ import annotations

from celery import shared_task
from django.db.models import Q
from django.dispatch import receiver

from matches.signals import match_ended

from . import services
from .models import Pair


@shared_task(name="versiontests.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@receiver(match_ended)
def _after_match(sender, match_id: int, **_) -> None:
    tid = Pair.objects.filter(Q(match_a_id=match_id) | Q(match_b_id=match_id)).values_list(
        "test_id", flat=True).first()
    if tid is not None:
        services.advance(tid)
