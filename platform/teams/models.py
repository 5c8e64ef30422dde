"""Teams: a team owns bots (`botregistry.Bot.team`) and its members play them.

A member is an `owner` (manages the members, the invitations and the team's bots: moves them out, deletes the
team) or a `member` (uploads versions, challenges, starts version tests with the team's bots). A person may belong
to several teams. A team always keeps at least one owner (`teams.services`).

An invitation names its invitee (a user, who alone may accept it) or is an open link: the link's key is shown once
and only its SHA-256 is stored, as with API tokens (`accounts.tokens`). Either is used once and expires.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class LiveTeams(models.Manager):
    """Teams that were not deleted: the ones lists, pages and the API know (`Team.all_teams` has every row; a bot
    reaches its deleted team through `bot.team`, which uses the base manager)."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


class Team(models.Model):
    name = models.CharField(max_length=64, unique=True)
    slug = models.SlugField(max_length=64, unique=True, help_text="The team's address: /teams/<slug>/.")
    skeleton = models.CharField(max_length=400, db_index=True, default="", editable=False,
                                help_text="accounts.names.skeleton(name): look-alike names share it (teams.services).")
    description = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When its owners deleted it while it still had (retired) bots: the row stays so their matches keep "
                  "their entrant, shown as 'deleted team'; its members, invitations and name are gone "
                  "(teams.services.delete_team).")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="teams")

    objects = LiveTeams()
    all_teams = models.Manager()

    class Meta:
        ordering = ["name"]
        base_manager_name = "all_teams"

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def skeleton_of(name: str) -> str:
        """`accounts.names.skeleton`, cut to the column (NFKC may lengthen a name: "ﷺ" is 18 letters)."""
        from accounts.names import skeleton

        return skeleton(name)[:400]

    def save(self, *args, **kwargs):
        self.skeleton = self.skeleton_of(self.name)  # whoever saves (services, the admin): look-alikes stay findable
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "skeleton"}
        super().save(*args, **kwargs)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        MEMBER = "member"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="membership_unique_user")]
        ordering = ["team_id", "joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        REVOKED = "revoked"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="team_invitations", help_text="Empty for a link invitation.")
    key_digest = models.CharField(max_length=64, null=True, blank=True, unique=True,
                                  help_text="SHA-256 of a link invitation's key (the key itself is not kept).")
    key_prefix = models.CharField(max_length=8, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    responded_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(
            condition=Q(invitee__isnull=False, key_digest__isnull=True) | Q(invitee__isnull=True, key_digest__isnull=False),
            name="invitation_user_or_link")]

    def __str__(self) -> str:
        who = self.invitee.username if self.invitee else f"link {self.key_prefix}…"
        return f"{self.team} → {who} ({self.status})"

    @property
    def is_link(self) -> bool:
        return self.invitee_id is None
