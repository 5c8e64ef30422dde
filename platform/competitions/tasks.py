"""Celery: the competitions' clock (`tick`, from beat), and moving a competition on at once when its final ends
(`tournaments.signals.tournament_ended`), so that the result does not wait for the tick."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver
from django.utils import timezone

from tournaments.signals import tournament_ended

from . import services
from .models import Competition


@shared_task(name="competitions.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@receiver(tournament_ended, dispatch_uid="competitions.final_ended")
def _after_final(sender, tournament_id: int, **_) -> None:
    cid = Competition.objects.filter(final_id=tournament_id).values_list("pk", flat=True).first()
    if cid is not None:
        services.step(cid, timezone.now())
