"""What the bot registry tells the layers above it (ratings first), so that it never calls up into them.

Both signals are sent synchronously, inside the transaction that made the change, so a receiver's writes commit
or roll back with it. Receivers: `ladders.receivers` (enrolment on the ladders, σ widening).
"""

from django.dispatch import Signal

#: A version of a bot became ready to play (validation passed, or a built-in bot was registered). Keyword
#: argument `version` (a `BotVersion` with its `bot` loaded).
version_ready = Signal()

#: The version a bot plays changed (`botregistry.services.set_active_version`, the only place that changes it).
#: Keyword arguments `bot_id`, `previous_version_id` (None for the bot's first version) and `version_id`. Sent
#: while the bot's row is locked, so two changes at once are seen one after the other, each once.
active_version_changed = Signal()
