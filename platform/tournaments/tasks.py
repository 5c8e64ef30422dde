"""Celery tasks: the periodic `tick` (beat) starts due tournaments and advances running ones; after every
tournament match the worker advances its tournament at once, so the next round doesn't wait for the tick."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver

from matches.signals import match_ended

from . import services


@shared_task(name="tournaments.tasks.tick", ignore_result=True)
def tick() -> None:
    services.tick()


@shared_task(name="tournaments.tasks.advance", ignore_result=True)
def advance(tournament_id: int) -> None:
    services.advance(tournament_id)


@receiver(match_ended)
def _after_match(sender, match_id: int, **_) -> None:
    from .models import Game

    tid = Game.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    if tid is not None:
        services.advance(tid)
