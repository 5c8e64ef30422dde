"""Who a bot belongs to, and who may act on it: the one place every API view and web page asks.

A bot is owned by its maker (`Bot.owner`) or, once moved to a team, by that team (`Bot.team`): then the team's
members play it, its maker only as one of them.

- `can_play(user, bot)`: upload versions, choose the active version, validate again, challenge with it, start and
  stop its version tests, change its description and switches, read its validation logs and what it printed
  in matches. The maker of a personal bot; any member of a team bot's team.
- `can_manage(user, bot)`: move the bot (`transfer`). The maker of a personal bot; an owner of a team bot's team.
- `stakes(bot)`: who has a stake in the bot (its team and every member, or its maker): no two bots with a stake
  in common meet at a ladder table or in a version test's pair (`matchmaking.rules`).
- `entrant(bot)`: who the bot plays for where entries are counted (tournaments' entries per entrant, version
  tests running at once): the team of a team bot, else its maker.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import translation

from arena.reasons import Reason, render
from teams import services as teams
from teams.models import Membership, Team

from .models import Bot

Entrant = tuple[str, int]


def entrant(bot: Bot) -> Entrant:
    """("team", id) for a team bot, ("user", id) for a personal one."""
    return ("team", bot.team_id) if bot.team_id is not None else ("user", bot.owner_id)


def stakes(bot: Bot) -> frozenset[Entrant]:
    """Who has a stake in the bot (matchmaking rule 3, `matchmaking.rules.Candidate.stakes`): its team and each
    of the team's members for a team bot, its maker for a personal one."""
    if bot.team_id is None:
        return frozenset({("user", bot.owner_id)})
    members = Membership.objects.filter(team_id=bot.team_id).values_list("user_id", flat=True)
    return frozenset({("team", bot.team_id), *(("user", m) for m in members)})


def entrant_of(owner_id: int, team_id: int | None) -> Entrant:
    """`entrant` from the two ids (for rows read with values_list)."""
    return ("team", team_id) if team_id is not None else ("user", owner_id)


def can_play(user: User | AnonymousUser | None, bot: Bot) -> bool:
    """(A retired bot, `Bot.retired_at`, is nobody's to play: its maker's account was deleted or staff retired it.)"""
    if user is None or not user.is_authenticated or bot.retired_at is not None:
        return False
    if bot.team_id is None:
        return bot.owner_id == user.pk
    return teams.is_member(bot.team_id, user)


def can_manage(user: User | AnonymousUser | None, bot: Bot) -> bool:
    if user is None or not user.is_authenticated or bot.retired_at is not None:
        return False
    if bot.team_id is None:
        return bot.owner_id == user.pk
    return teams.is_owner(bot.team_id, user)


def retired_why(bot: Bot) -> str:
    """Why a retired bot (`Bot.retired_at`) was retired, as a clause in the active language, without a full stop
    ("" if it plays on)."""
    from accounts.deletion import is_deleted

    if bot.retired_at is None:
        return ""
    if bot.team is not None and bot.team.deleted_at is not None:
        code = "retired.team_deleted"
    elif bot.team is not None and not bot.team.memberships.exists():
        code = "retired.team_empty"
    elif bot.team is None and is_deleted(bot.owner):
        code = "retired.owner_deleted"
    else:
        code = "retired.staff"
    # in the language being spoken (the page's, the mail's); stored ones (a tournament's forfeit) are re-told
    return render(Reason(code), translation.get_language() or "en")


def playable_by(user: User | AnonymousUser | None) -> QuerySet[Bot]:
    """The bots `user` may play: their personal bots and their teams' bots."""
    if not getattr(user, "is_authenticated", False):
        return Bot.objects.none()
    return Bot.objects.filter(Q(owner=user, team__isnull=True) | Q(team__memberships__user=user)).distinct()


class TransferRefused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def transfer(bot: Bot, by: User, *, team: Team | None = None, to_user: User | None = None) -> Bot:
    """Move a bot: a personal bot to a team its maker belongs to (by its maker), or a team bot to one of the
    team's members as their personal bot (by a team owner; that member becomes `owner`), or to another team of
    which `by` owns the first and is a member of the second. Its versions, ratings and history go with it.
    Raises `TransferRefused` (a name already used by the new owner is a 409)."""
    if (team is None) == (to_user is None):
        raise TransferRefused("name either a team or a member to move the bot to")
    if bot.builtin:
        raise TransferRefused("built-in bots stay the house's", status=403)
    if bot.retired_at is not None:
        raise TransferRefused("this bot is retired: it stays where it is", status=409)
    if not can_manage(by, bot):
        raise TransferRefused("only the bot's owner (a team bot: the team's owners) can move it", status=403)
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot.pk)
        if team is not None:
            if not teams.is_member(team, by):
                raise TransferRefused("you can only move a bot to a team you belong to", status=403)
            if bot.team_id == team.pk:
                raise TransferRefused(f"{bot.name} already belongs to {team.name}", status=409)
            if Bot.objects.filter(team=team, name=bot.name).exists():
                raise TransferRefused(f"{team.name} already has a bot named {bot.name}", status=409)
            bot.team = team
        else:
            assert to_user is not None  # the first check: exactly one of `team` and `to_user`
            if bot.team_id is None:
                raise TransferRefused("only a team's bot can be moved to a person", status=400)
            if not Membership.objects.filter(team_id=bot.team_id, user=to_user).exists():
                raise TransferRefused(f"{to_user.username} is not a member of the team", status=400)
            if Bot.objects.filter(owner=to_user, name=bot.name).exclude(pk=bot.pk).exists():
                raise TransferRefused(f"{to_user.username} already has a bot named {bot.name}", status=409)
            bot.team = None
            bot.owner = to_user
        try:
            with transaction.atomic():
                bot.save(update_fields=["team", "owner"])
        except IntegrityError:  # a bot of that name made meanwhile
            raise TransferRefused("the new owner already has a bot of this name", status=409) from None
    return bot


def people_to_tell(bot: Bot) -> list[User]:
    """Who hears of what happens to the bot (its versions failing or suspended, its tournaments): its owner; for
    a team bot the team's owners and its maker while still a member."""
    if bot.team_id is None:
        return [bot.owner]
    rows = Membership.objects.filter(team_id=bot.team_id).select_related("user").order_by("id")
    return [m.user for m in rows if m.role == Membership.Role.OWNER or m.user_id == bot.owner_id]
