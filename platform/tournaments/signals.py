"""What tournaments tell the apps above them (notifications), so that they never call up into them."""

from django.dispatch import Signal

#: A tournament started (`tournaments.services.start`: entries pinned, round 1 queued). Sent once that
#: transaction commits, with `send_robust`. Keyword argument `tournament_id`.
tournament_started = Signal()

#: A tournament ended: finished (its last round played) or cancelled at its start (too few entries...). Sent once
#: that transaction commits, with `send_robust`. Keyword argument `tournament_id`.
tournament_ended = Signal()
