"""What can happen to a team, each rule in one place for the API and the web pages alike.

Every function raises `TeamRefused` (its message is shown to the user; `status` is the HTTP status the API
answers with) rather than change anything it may not. Roles: an `owner` manages members, invitations and the
team; a `member` only plays the team's bots. A team always keeps at least one owner: the last owner can neither
leave, nor be removed, nor step down to member; they hand the team to another owner first, or delete the team
(once it owns no bots).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.text import slugify

from accounts.names import impersonation, protected_names

from .models import Invitation, Membership, Team

Role = Membership.Role


class TeamRefused(Exception):
    """A team action that is not allowed or not possible; the message says why."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def invitation_days() -> int:
    return getattr(settings, "ARENA_TEAM_INVITATION_DAYS", 7)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# ------------------------------------------------------------------------------------------------ who is who

def team_ids(user) -> frozenset[int]:
    """Ids of the teams `user` belongs to (any role), read once per user object (one request's user)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    cached = getattr(user, "_arena_team_ids", None)
    if cached is None:
        cached = frozenset(Membership.objects.filter(user=user).values_list("team_id", flat=True))
        user._arena_team_ids = cached
    return cached


def forget(user) -> None:
    """Drop the membership cache of `user` (after it changed in this request)."""
    if hasattr(user, "_arena_team_ids"):
        del user._arena_team_ids


def role_of(team: Team | int, user) -> str | None:
    """`owner`, `member` or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    team_id = team if isinstance(team, int) else team.pk
    return Membership.objects.filter(team_id=team_id, user=user).values_list("role", flat=True).first()


def is_member(team: Team | int, user) -> bool:
    return (team if isinstance(team, int) else team.pk) in team_ids(user)


def is_owner(team: Team | int, user) -> bool:
    return role_of(team, user) == Role.OWNER


def owners(team: Team) -> list:
    return [m.user for m in team.memberships.filter(role=Role.OWNER).select_related("user").order_by("id")]


def _require_owner(team: Team, user) -> None:
    role = role_of(team, user)
    if role is None:
        raise TeamRefused("you are not a member of this team", status=403)
    if role != Role.OWNER:
        raise TeamRefused("only the team's owners can do this", status=403)


# ------------------------------------------------------------------------------------------------ the team

def check_name(name: str, user) -> tuple[str, str]:
    """(name, slug) for a new team, or TeamRefused: reserved names (accounts.names) and taken ones are refused."""
    name = (name or "").strip()
    if not name:
        raise TeamRefused("a team needs a name")
    if len(name) > 64:
        raise TeamRefused("a team name has at most 64 characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise TeamRefused("a team name can't hold control characters")
    if not user.is_staff and (reason := impersonation(name, protected_names())):
        raise TeamRefused(reason)
    slug = slugify(name)[:64].strip("-")
    if not slug:
        raise TeamRefused("a team name needs letters or digits (its address is made of them)")
    if Team.objects.filter(name__iexact=name).exists() or Team.objects.filter(slug=slug).exists():
        raise TeamRefused(f"the name '{name}' is taken", status=409)
    # "Rеd Team" (a Cyrillic е), "red_team", "R e d T e a m": a look-alike would pass for the other team beside
    # its bots on leaderboards, so names compare by their skeletons (accounts.names), as usernames do
    other = Team.objects.filter(skeleton=Team.skeleton_of(name)).values_list("name", flat=True).first()
    if other is not None:
        raise TeamRefused(f"'{name}' reads as '{other}', the name of another team", status=409)
    return name, slug


MAX_DESCRIPTION = 2000


def _check_description(text: str) -> str:
    text = (text or "").strip()
    if len(text) > MAX_DESCRIPTION or "\x00" in text:
        raise TeamRefused(f"a description has at most {MAX_DESCRIPTION} characters and no NUL")
    return text


def create_team(user, name: str, description: str = "") -> Team:
    """A new team with `user` as its owner."""
    name, slug = check_name(name, user)
    description = _check_description(description)
    try:
        with transaction.atomic():
            team = Team.objects.create(name=name, slug=slug, description=description or "")
            Membership.objects.create(team=team, user=user, role=Role.OWNER)
    except IntegrityError:  # the same name, made at the same moment
        raise TeamRefused(f"the name '{name}' is taken", status=409) from None
    forget(user)
    return team


def update_team(team: Team, by, description: str) -> Team:
    _require_owner(team, by)
    team.description = _check_description(description)
    team.save(update_fields=["description"])
    return team


STILL_PLAYING = "the team still owns bots that play: move each to a member first (retired bots may stay)"


def delete_team(team: Team, by) -> None:
    """An owner deletes the team, once every bot it owns is retired (playing bots are moved to a member first: a
    bot's ratings and history must not disappear with a team).

    A team with no bots is deleted outright. A team whose bots are all retired (they can't be moved) keeps its row,
    marked `deleted_at`: its bots keep their matches, ratings and entrant, and pages show the team as "deleted
    team". Its members and invitations are deleted, and its name is freed for a new team (renamed
    `deleted-team-<id>`): the retired bots' pages never show the old name, so a new team of that name inherits
    nothing and passes for nobody."""
    _require_owner(team, by)
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)  # a bot moved in meanwhile waits for this
        bots = list(team.bots.select_for_update().values_list("retired_at", flat=True))
        if any(retired is None for retired in bots):
            raise TeamRefused(STILL_PLAYING, status=409)
        if not bots:
            try:
                team.delete()
            except ProtectedError:  # a bot moved in meanwhile (Bot.team is PROTECT)
                raise TeamRefused(STILL_PLAYING, status=409) from None
        else:
            team.memberships.all().delete()
            team.invitations.all().delete()
            team.name = team.slug = f"deleted-team-{team.pk}"
            team.description = ""
            team.deleted_at = timezone.now()
            team.save()
    forget(by)


# ------------------------------------------------------------------------------------------------ members

def _lock_memberships(team: Team) -> list[Membership]:
    """The team's memberships, locked: two owners stepping down at once can't leave the team without one."""
    return list(Membership.objects.select_for_update().filter(team=team).order_by("id"))


def _check_keeps_an_owner(rows: list[Membership], leaving: Membership) -> None:
    if leaving.role == Role.OWNER and not any(m.role == Role.OWNER and m.pk != leaving.pk for m in rows):
        raise TeamRefused("a team keeps at least one owner: make another member an owner first, or delete the team",
                          status=409)


def leave(team: Team, user) -> None:
    """`user` leaves the team (not its last owner)."""
    with transaction.atomic():
        rows = _lock_memberships(team)
        mine = _membership_in(rows, user, "you are not a member of this team")
        _check_keeps_an_owner(rows, mine)
        mine.delete()
    forget(user)


def _membership_in(rows: list[Membership], user, missing: str) -> Membership:
    """`user`'s row among a team's (locked) memberships; a 404 saying `missing` when they have none."""
    row = next((m for m in rows if m.user_id == user.pk), None)
    if row is None:
        raise TeamRefused(missing, status=404)
    return row


def remove_member(team: Team, by, user) -> None:
    """An owner removes a member (or another owner; never the last one)."""
    with transaction.atomic():
        _require_owner(team, by)
        rows = _lock_memberships(team)
        target = _membership_in(rows, user, f"{user.username} is not a member of this team")
        _check_keeps_an_owner(rows, target)
        target.delete()


def set_role(team: Team, by, user, role: str) -> Membership:
    """An owner makes a member an owner or an owner a member (never the last owner)."""
    if role not in Role.values:
        raise TeamRefused(f"role is one of {', '.join(Role.values)}")
    with transaction.atomic():
        _require_owner(team, by)
        rows = _lock_memberships(team)
        target = _membership_in(rows, user, f"{user.username} is not a member of this team")
        if role == Role.MEMBER:
            _check_keeps_an_owner(rows, target)
        target.role = role
        target.save(update_fields=["role"])
    return target


# ------------------------------------------------------------------------------------------------ invitations

def invite_user(team: Team, by, username: str) -> Invitation:
    """An owner invites a user by name; only that user can accept. Inviting someone already invited again
    gives the pending invitation a new expiry."""
    _require_owner(team, by)
    username = (username or "").strip()
    invitee = None
    if 0 < len(username) <= 150 and "\x00" not in username:  # PostgreSQL refuses NUL in a query
        invitee = get_user_model().objects.filter(username=username, is_active=True).first()
    if invitee is None:
        raise TeamRefused(f"no user named '{username}'", status=404)
    if Membership.objects.filter(team=team, user=invitee).exists():
        raise TeamRefused(f"{invitee.username} is already a member", status=409)
    expires = timezone.now() + timedelta(days=invitation_days())
    with transaction.atomic():
        inv = (Invitation.objects.select_for_update()
               .filter(team=team, invitee=invitee, status=Invitation.Status.PENDING).first())
        if inv is not None:
            inv.expires_at = expires
            inv.invited_by = by
            inv.save(update_fields=["expires_at", "invited_by"])
            return inv
        return Invitation.objects.create(team=team, invited_by=by, invitee=invitee, expires_at=expires)


def invite_link(team: Team, by) -> tuple[Invitation, str]:
    """An owner makes a link invitation: (invitation, key). The key is in the link and nowhere else: Arena keeps
    its SHA-256. Whoever opens the link first, signed in, joins (once; until it expires)."""
    _require_owner(team, by)
    key = secrets.token_urlsafe(24)
    inv = Invitation.objects.create(team=team, invited_by=by, key_digest=digest(key), key_prefix=key[:8],
                                    expires_at=timezone.now() + timedelta(days=invitation_days()))
    return inv, key


def revoke(invitation: Invitation, by) -> None:
    _require_owner(invitation.team, by)
    if invitation.status != Invitation.Status.PENDING:
        raise TeamRefused(f"this invitation is already {invitation.status}", status=409)
    invitation.status = Invitation.Status.REVOKED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["status", "responded_at"])


def by_key(key: str) -> Invitation:
    """The link invitation of `key` (TeamRefused 404 for an unknown key)."""
    if not key or len(key) > 128:
        raise TeamRefused("no such invitation", status=404)
    inv = Invitation.objects.select_related("team").filter(key_digest=digest(key)).first()
    if inv is None:
        raise TeamRefused("no such invitation", status=404)
    return inv


def _open(inv: Invitation, user, now) -> None:
    """Refuse an invitation `user` may not answer now. A named invitation is the invitee's alone (anyone else
    is told it does not exist: 404)."""
    if inv.invitee_id is not None and inv.invitee_id != user.pk:
        raise TeamRefused("no such invitation", status=404)
    if inv.status != Invitation.Status.PENDING:
        raise TeamRefused(f"this invitation was already {inv.status}", status=409)
    if inv.expires_at <= now:
        raise TeamRefused("this invitation has expired: ask the team for a new one", status=410)


def accept(invitation: Invitation, user, *, key: str | None = None) -> Membership:
    """The invitee (or, for a link, whoever opens it first) joins the team as a member. A link invitation is
    accepted only with its `key` (the proof of having been sent the link): its id alone, which counts up and is
    shown to the team's owners, lets nobody in."""
    now = timezone.now()
    with transaction.atomic():
        inv = Invitation.objects.select_for_update().select_related("team").get(pk=invitation.pk)
        if inv.is_link and (not key or not secrets.compare_digest(digest(key), inv.key_digest or "")):
            raise TeamRefused("no such invitation", status=404)
        _open(inv, user, now)
        if Membership.objects.filter(team=inv.team, user=user).exists():
            raise TeamRefused("you are already a member of this team", status=409)
        inv.status = Invitation.Status.ACCEPTED
        inv.responded_at = now
        inv.accepted_by = user
        inv.save(update_fields=["status", "responded_at", "accepted_by"])
        member = Membership.objects.create(team=inv.team, user=user, role=Role.MEMBER)
    forget(user)
    return member


def decline(invitation: Invitation, user) -> None:
    """The invitee declines a named invitation (a link is simply not used)."""
    now = timezone.now()
    with transaction.atomic():
        inv = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if inv.is_link:
            raise TeamRefused("a link invitation is declined by not using it", status=409)
        _open(inv, user, now)
        inv.status = Invitation.Status.DECLINED
        inv.responded_at = now
        inv.save(update_fields=["status", "responded_at"])


def pending_for(user):
    """Named invitations waiting for `user`'s answer."""
    return (Invitation.objects.filter(invitee=user, status=Invitation.Status.PENDING, expires_at__gt=timezone.now())
            .select_related("team", "invited_by"))


def keep_days() -> int:
    return getattr(settings, "ARENA_TEAM_INVITATION_KEEP_DAYS", 30)


def sweep_invitations(now=None) -> int:
    """Delete the invitations that expired more than `ARENA_TEAM_INVITATION_KEEP_DAYS` (30) days ago, answered or
    not: an expired one can't be used any more, and the owners' list and the table should not grow for ever.
    Memberships are the record of who joined. Returns how many were deleted (beat runs it daily:
    `teams.tasks.sweep_invitations`; by hand: `manage.py sweep_invitations`)."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days())
    deleted, _ = Invitation.objects.filter(expires_at__lt=cutoff).delete()
    return deleted
