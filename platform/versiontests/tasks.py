"""Celery: after every version-test match the worker advances its test at once; `tick` (beat) is the safety
net for a hook a dead worker never ran."""

from __future__ import annotations

from celery import shared_task
from celery.signals import task_postrun

from . import services


@shared_task(name="versiontests.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@task_postrun.connect
def _after_match(sender=None, args=None, kwargs=None, **_):
    if getattr(sender, "name", "") != "matches.tasks.run_match":
        return
    match_id = (args or [None])[0] if args else (kwargs or {}).get("match_id")
    if match_id is None:
        return
    from django.db.models import Q

    from .models import Pair

    tid = Pair.objects.filter(Q(match_a_id=match_id) | Q(match_b_id=match_id)).values_list(
        "test_id", flat=True).first()
    if tid is not None:
        services.advance(tid)
