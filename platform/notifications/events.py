"""The events an owner can be told of (plain Python): their names in the API and the webhook's `event`."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_


class Event(StrEnum):
    VERSION_FAILED = "version_failed"            # a version of your bot failed validation
    VERSION_SUSPENDED = "version_suspended"      # a ready version was suspended for faulting in most matches
    VERSION_TEST_ENDED = "version_test_ended"    # your version test was accepted, rejected or stopped
    CHALLENGE_FINISHED = "challenge_finished"    # a challenge you asked for finished (or failed, or was cancelled)
    TOURNAMENT_STARTED = "tournament_started"    # a tournament one of your bots entered started
    TOURNAMENT_ENDED = "tournament_ended"        # ... finished, or was cancelled
    COMPETITION_OPEN = "competition_open"        # a competition you are invited to opened its entries
    COMPETITION_DEADLINE_SOON = "competition_deadline_soon"  # 24 h before the deadline of one you entered
    COMPETITION_FINAL_STARTED = "competition_final_started"  # its final started
    COMPETITION_RESULTS = "competition_results"  # its results were published


#: what each event is called on the owner page (marked for the catalogs; the page translates them)
LABELS: dict[Event, str] = {
    Event.VERSION_FAILED: N_("a version fails validation"),
    Event.VERSION_SUSPENDED: N_("a version is suspended"),
    Event.VERSION_TEST_ENDED: N_("a version test ends"),
    Event.CHALLENGE_FINISHED: N_("a challenge I asked for finishes"),
    Event.TOURNAMENT_STARTED: N_("a tournament my bot entered starts"),
    Event.TOURNAMENT_ENDED: N_("a tournament my bot entered ends"),
    Event.COMPETITION_OPEN: N_("a competition I am invited to opens its entries"),
    Event.COMPETITION_DEADLINE_SOON: N_("a competition I entered is 24 hours from its deadline"),
    Event.COMPETITION_FINAL_STARTED: N_("the final of a competition I entered starts"),
    Event.COMPETITION_RESULTS: N_("the results of a competition I entered are published"),
}

ALL: list[str] = [e.value for e in Event]
