"""What accounts tells the apps above it, so that it never imports them (platform/README.md, "Dependency order").

`account_deleting` is sent synchronously by `accounts.deletion.delete_account`, inside the transaction that
anonymises the account and with the user's row locked, so a receiver's writes commit or roll back with the
deletion. Receivers: `botregistry.receivers` (retire the person's bots), `matches.receivers` (cancel their bots'
queued ladder matches and challenges),
`versiontests.receivers` (stop their running version tests), `notifications.receivers` (forget their
notification settings, webhook secret included), `teams.receivers` (leave every team, keeping each an owner), `tables.receivers` (cancel their open tables, free their seats at others'). A receiver that needs to touch files does so in
`transaction.on_commit`, so a rolled-back deletion removes nothing.
"""

from django.dispatch import Signal

#: An account is being deleted. Keyword argument `user` (the user, not yet anonymised: `user.pk` stays the same
#: afterwards, so receivers select by it).
account_deleting = Signal()
