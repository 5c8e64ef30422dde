"""The teams' part in deleting an account (`accounts.signals.account_deleting`, in the deletion's transaction).

The person leaves every team and their invitations go (pending ones they were sent, and links they made stay
valid only while an owner remains). A team must keep an owner: when the person was its last one, its
longest-standing member becomes owner. A team left with no member and no bot is deleted; one with bots but no
member keeps them, retired (`Bot.retired_at`, as the person's own bots are: nobody is left to fix or move them,
so they leave the ladders, matchmaking and the tournament games still to come; their ratings and matches stay;
staff can move them and clear `retired_at` in the admin).
"""

from __future__ import annotations

from django.dispatch import receiver
from django.utils import timezone

from accounts.signals import account_deleting

from .models import Invitation, Membership, Team


@receiver(account_deleting, dispatch_uid="teams.leave_all")
def leave_all_teams(sender, user, **kwargs) -> None:
    Invitation.objects.filter(invitee_id=user.pk).delete()
    team_ids = list(Membership.objects.filter(user_id=user.pk).values_list("team_id", flat=True))
    for team in Team.objects.select_for_update().filter(pk__in=team_ids).order_by("pk"):
        Membership.objects.filter(team=team, user_id=user.pk).delete()
        rest = list(Membership.objects.filter(team=team).order_by("joined_at", "id"))
        if not rest:
            if not team.bots.exists():
                team.delete()
            else:
                team.invitations.filter(status=Invitation.Status.PENDING).update(status=Invitation.Status.REVOKED)
                team.bots.filter(retired_at__isnull=True).update(retired_at=timezone.now())
            continue
        if not any(m.role == Membership.Role.OWNER for m in rest):
            rest[0].role = Membership.Role.OWNER
            rest[0].save(update_fields=["role"])
