"""What the matches app tells the apps built on it (tournaments, version tests)."""

from django.dispatch import Signal

#: Sent by the worker once it is done with a match it claimed, whether the match finished or failed
#: (keyword argument `match_id`). Receivers advance whatever waits on the match; they must be idempotent, since
#: a periodic tick also advances them in case a worker died before sending this.
match_ended = Signal()
