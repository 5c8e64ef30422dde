"""Celery tasks: the periodic `tick` (beat) starts due tournaments and advances running ones (the safety net of
the hook below); when a tournament match ends (`matches.signals.match_ended`, sent once its ending commits) its
tournament advances at once, so the next round doesn't wait for the tick."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver

from matches.signals import match_ended

from . import services
from .models import Game


@shared_task(name="tournaments.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@receiver(match_ended)
def _after_match(sender, match_id: int, **_) -> None:
    tid = Game.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    if tid is not None:
        services.advance(tid)
