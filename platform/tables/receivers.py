"""The tables' part in deleting an account (`accounts.signals.account_deleting`, in the deletion's transaction):
the person's own open tables are cancelled, and a seat they took at someone else's open table is free again (the
table's page shows it free; a match already started plays on, and their seat loses on time)."""

from __future__ import annotations

from django.dispatch import receiver

from accounts.signals import account_deleting

from .services import leave_all


@receiver(account_deleting, dispatch_uid="tables.leave_all")
def leave_all_tables(sender, user, **kwargs) -> None:
    leave_all(user)
