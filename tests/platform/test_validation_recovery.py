"""Lost validations (issue 12): a version whose validation message the broker lost is sent again within the
documented delay (ARENA_LOST_MESSAGE_SECONDS when nothing waits in the queue, ARENA_RESEND_QUEUED_AFTER_SECONDS
behind a backlog), a validation whose worker died is taken over once its heartbeat is stale or its process is
known dead, and a re-sent duplicate never validates a version twice: the run holding the version's claim is the
only one that validates it and records the outcome."""

from __future__ import annotations

import os
import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone
from platform_helpers import make_bot, wait_for


@pytest.fixture
def version(make_user):
    return make_bot(make_user(), "newbie", status="pending").versions.get()


@pytest.fixture
def sent(monkeypatch):
    from botregistry import services

    queued: list[int] = []
    monkeypatch.setattr(services, "_queue_validation", queued.append)
    return queued


def sent_ago(version, seconds: float) -> None:
    type(version).objects.filter(pk=version.pk).update(
        validation_queued_at=timezone.now() - timedelta(seconds=seconds))


def dead_worker() -> str:
    """The worker id of a process of this host's pid namespace that has exited."""
    from arena_site.workers import process_space
    child = subprocess.Popen(["true"])
    child.wait()
    return f"{process_space()}:{child.pid}#0000"


def test_a_pending_validation_is_resent_once_the_lost_message_delay_passed_with_nothing_waiting(
        version, sent, settings):
    from botregistry.services import resend_lost_validations

    grace = settings.ARENA_LOST_MESSAGE_SECONDS
    assert grace <= 30  # the documented "seconds, not minutes"
    sent_ago(version, grace - 10)  # ten seconds of room: a loaded machine cannot cross the threshold meanwhile
    assert resend_lost_validations(waiting=lambda: 0) == [] == sent
    sent_ago(version, grace + 1)
    assert resend_lost_validations(waiting=lambda: 0) == [version.pk] == sent
    assert resend_lost_validations(waiting=lambda: 0) == []  # once per threshold, not on every tick
    version.refresh_from_db()
    assert version.status == "pending"


def test_behind_a_backlog_a_pending_validation_waits_for_the_long_delay(version, sent, settings):
    from botregistry.services import resend_lost_validations

    sent_ago(version, settings.ARENA_LOST_MESSAGE_SECONDS + 1)
    assert resend_lost_validations(waiting=lambda: 3) == []  # perhaps only waiting its turn
    assert resend_lost_validations(waiting=lambda: None) == []  # the broker could not say: the same
    sent_ago(version, settings.ARENA_RESEND_QUEUED_AFTER_SECONDS + 1)
    assert settings.ARENA_RESEND_QUEUED_AFTER_SECONDS <= 120
    assert resend_lost_validations(waiting=lambda: 3) == [version.pk] == sent


def test_a_validation_whose_worker_stopped_is_resent_and_a_live_one_is_not(version, sent, settings):
    from arena_site.workers import worker_id
    from botregistry.models import BotVersion
    from botregistry.services import resend_lost_validations

    settings.ARENA_STALE_AFTER_SECONDS = 10
    live = f"{worker_id()}#live"
    BotVersion.objects.filter(pk=version.pk).update(status="validating", validation_claim=live,
                                                    validation_heartbeat_at=timezone.now())
    sent_ago(version, 600)
    assert resend_lost_validations(waiting=lambda: 0) == []  # a long build on a live worker: left alone
    BotVersion.objects.filter(pk=version.pk).update(validation_heartbeat_at=timezone.now() - timedelta(seconds=30))
    assert resend_lost_validations(waiting=lambda: 0) == [version.pk]  # silent past the stale threshold
    assert resend_lost_validations(waiting=lambda: 0) == []  # not again within the threshold
    BotVersion.objects.filter(pk=version.pk).update(validation_claim=dead_worker(),
                                                    validation_heartbeat_at=timezone.now())
    sent_ago(version, 60)
    assert resend_lost_validations(waiting=lambda: 0) == [version.pk]  # its process is gone: at once
    assert sent == [version.pk, version.pk]


def test_a_duplicate_message_never_validates_a_version_a_live_run_holds(version):
    from arena_site.workers import worker_id
    from botregistry.models import BotVersion
    from botregistry.tasks import validate_version

    live = f"{worker_id()}#live"
    BotVersion.objects.filter(pk=version.pk).update(status="validating", validation_claim=live,
                                                    validation_heartbeat_at=timezone.now())
    assert validate_version(version.pk).startswith("nothing to do")
    version.refresh_from_db()
    assert (version.status, version.validation_claim, version.validated_at) == ("validating", live, None)


def test_a_lost_run_is_taken_over_and_its_late_outcome_is_discarded(version):
    from botregistry.models import BotVersion
    from botregistry.services import mark_validated
    from botregistry.tasks import validate_version

    lost = dead_worker()
    BotVersion.objects.filter(pk=version.pk).update(status="validating", validation_claim=lost,
                                                    validation_heartbeat_at=timezone.now())
    # the re-sent message takes it over (this version has no package: the new run fails it, and that counts)
    assert validate_version(version.pk) == "failed"
    version.refresh_from_db()
    decided = (version.status, version.status_reason, version.validated_at)
    assert version.status == "failed" and version.validation_claim != lost
    # the lost run comes back (a frozen worker thawed) and reports: nothing changes
    BotVersion.objects.filter(pk=version.pk).update(status="validating")
    mark_validated(version, True, "", "the superseded run's log", claim=lost)
    version.refresh_from_db()
    assert version.status == "validating" and version.validation_log != "the superseded run's log"
    BotVersion.objects.filter(pk=version.pk).update(status=decided[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_lost_validation_message_is_resent_and_validated_once_by_a_real_worker(celery_worker, make_user):
    """On the real Redis and a real worker: a pending version whose message never reached the broker is sent
    again by the recovery once the delay has passed with the queue empty, a worker validates it, and neither
    the recovery nor a duplicate delivery validates it again."""
    from django.conf import settings

    from botregistry.models import BotVersion
    from botregistry.tasks import validate_version
    from matches.services import waiting_messages
    from matches.tasks import recover_stale_matches

    version = make_bot(make_user(), "unlucky", status="pending").versions.get()  # its message: never sent
    wait_for(lambda: waiting_messages() == 0, 30, 0.5, "the worker to drain the queue")
    sent_ago(version, settings.ARENA_LOST_MESSAGE_SECONDS - 10)
    recover_stale_matches()  # beat's recovery tick
    assert BotVersion.objects.get(pk=version.pk).status == "pending"  # within its delay: may still arrive
    sent_ago(version, settings.ARENA_LOST_MESSAGE_SECONDS + 1)
    recover_stale_matches()
    # no package behind this version: the worker fails it; what matters is that it was delivered and decided
    decided = wait_for(lambda: BotVersion.objects.filter(pk=version.pk, status="failed").first(), 60, 0.5,
                       "a worker to validate the re-sent version")
    assert decided.validation_claim.split(":")[-1].split("#")[0] != str(os.getpid())  # the worker, not us
    validate_version.delay(version.pk)  # a late duplicate of the message
    recover_stale_matches()
    assert BotVersion.objects.get(pk=version.pk).validation_queued_at == decided.validation_queued_at
    wait_for(lambda: waiting_messages() == 0, 30, 0.5, "the worker to take the duplicate")
    again = BotVersion.objects.get(pk=version.pk)
    assert (again.status, again.validated_at, again.validation_claim) == (
        "failed", decided.validated_at, decided.validation_claim)
