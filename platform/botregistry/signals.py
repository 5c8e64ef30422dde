"""What the bot registry tells the layers above it (ratings first), so that it never calls up into them.

`version_ready` and `active_version_changed` are sent synchronously, inside the transaction that made the change,
so a receiver's writes commit or roll back with it. Receivers: `ladders.receivers` (enrolment on the ladders, σ
widening; and the answer to `validation_table`). `version_failed` and `version_suspended` are sent once the change has committed (`send_robust`: a
receiver's exception is logged, never the change's); `notifications.receivers` tells the owner.
"""

from django.dispatch import Signal

#: A version of a bot became ready to play (validation passed, or a built-in bot was registered). Keyword
#: argument `version` (a `BotVersion` with its `bot` loaded).
version_ready = Signal()

#: The version a bot plays changed (`botregistry.services.set_active_version`, the only place that changes it).
#: Keyword arguments `bot_id`, `previous_version_id` (None for the bot's first version) and `version_id`. Sent
#: while the bot's row is locked, so two changes at once are seen one after the other, each once.
active_version_changed = Signal()

#: A version failed validation (`botregistry.services.mark_validated`). Sent after the commit, with `send_robust`.
#: Keyword argument `version_id`.
version_failed = Signal()

#: A ready version was suspended for faulting in most of its recent matches (`matches.suspension`, which holds the
#: rule; the status is the registry's). Sent after the commit, with `send_robust`. Keyword argument `version_id`.
version_suspended = Signal()

#: Asked by a validation (`botregistry.tasks`), so that its smoke match is a ladder match as the bot sees it:
#: a receiver answers with the table of a ladder the bot would play on, a dict with `params` (the game's options,
#: "players" among them) and `time_control` (a dict of `arena.match.types.TimeControl`), or None. Keyword
#: argument `game`. Sent with `send`, synchronously; `ladders.receivers` answers.
validation_table = Signal()
