"""What version tests tell the apps above them (notifications), so that they never call up into them."""

from django.dispatch import Signal

#: A version test ended (accepted, rejected or stopped: `versiontests.services._stop`). Sent once the transaction
#: that ended it commits, with `send_robust`. Keyword argument `test_id`.
version_test_ended = Signal()
