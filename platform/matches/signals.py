"""What the matches app tells the apps built on it (tournaments, version tests): the one hook after a match.

Nothing calls up from a finished match into the apps that wait on it; they listen here.
"""

from django.dispatch import Signal

#: Sent once the transaction that ended a match commits (`matches.services.announce_end`), whichever way it
#: ended: finished (`record_result`), failed (`fail`, or `claim` giving up after too many starts) or cancelled
#: (`cancel`). Keyword argument `match_id`. Sent with `send_robust`: a receiver's exception is logged and the
#: others still run. Receivers advance whatever waits on the match; they must be idempotent, since their periodic
#: tick also advances them in case the announcement was lost (a worker killed between commit and send).
match_ended = Signal()
