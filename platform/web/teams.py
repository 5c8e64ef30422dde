"""The team pages: every team (`/teams/`), one team (`/teams/<slug>/`: members with roles, bots with ratings, and
for its members and owners the forms that act on it), and a link invitation (`/teams/join/<key>/`).

Plain forms posted to the page they are on (they work without JavaScript); each action is a function of
`teams.services` or `botregistry.ownership`, the same the REST API calls, so the rules live in one place. A refused
action comes back as a message on the page (and the status the API would answer), never as a changed team.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import throttles
from botregistry import ownership
from botregistry.models import Bot
from ladders.models import Rating
from teams import services
from teams.models import Invitation, Membership, Team

User = get_user_model()


def team_list(request):
    """Every team; for a signed-in user also their teams, the invitations waiting for them and "new team"."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('web:login')}?next={request.path}")
        return _list_action(request)
    teams = Team.objects.annotate(n_members=Count("memberships", distinct=True),
                                  n_bots=Count("bots", distinct=True)).order_by("name")
    mine = invitations = []
    if request.user.is_authenticated:
        mine = list(Membership.objects.filter(user=request.user).select_related("team").order_by("team__name"))
        invitations = list(services.pending_for(request.user))
    return render(request, "web/teams.html", {"teams": teams, "mine": mine, "invitations": invitations})


def _too_many(request) -> bool:
    """Making teams and invitations is limited as on the API (accounts.throttles.TEAMS); True after saying so."""
    if (wait := throttles.throttled(request, throttles.TEAMS)) is None:
        return False
    messages.error(request, _("Too many teams or invitations made: try again in %(seconds)s s.") % {
        "seconds": int(wait) + 1})
    return True


def _list_action(request):
    action = request.POST.get("action")
    if action == "create" and _too_many(request):
        return redirect("web:teams")
    try:
        if action == "create":
            team = services.create_team(request.user, request.POST.get("name", ""),
                                        request.POST.get("description", "").strip())
            messages.success(request, _("Team %(team)s made; you are its owner.") % {"team": team.name})
            return redirect("web:team", slug=team.slug)
        if action in ("accept", "decline"):
            # named invitations only, and only the user's own (a link is joined at /teams/join/<key>/)
            inv = Invitation.objects.filter(pk=_int(request.POST.get("invitation")), invitee=request.user).first()  # type: ignore[misc]  # None: no row
            if inv is None:
                raise services.TeamRefused("no such invitation", status=404)
            if action == "accept":
                services.accept(inv, request.user)
                messages.success(request, _("You joined %(team)s.") % {"team": inv.team.name})
                return redirect("web:team", slug=inv.team.slug)
            services.decline(inv, request.user)
            messages.success(request, _("You declined the invitation to %(team)s.") % {"team": inv.team.name})
        else:
            messages.error(request, _("Unknown action."))
    except services.TeamRefused as exc:
        messages.error(request, str(exc))
    return redirect("web:teams")


def _int(value) -> int | None:
    return int(value) if value and str(value).isdigit() and len(str(value)) < 19 else None


def team(request, slug: str):
    t = get_object_or_404(Team, slug=slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('web:login')}?next={request.path}")
        return _team_action(request, t)
    members = list(t.memberships.select_related("user").order_by("-role", "joined_at", "id"))
    ratings = Rating.objects.select_related("ladder").order_by("-rating")
    bots = list(t.bots.select_related("owner", "active_version")
                .prefetch_related(Prefetch("ratings", queryset=ratings)).order_by("game", "name"))
    role = services.role_of(t, request.user)
    context = {"team": t, "members": members, "bots": bots, "role": role,
               "new_link": request.session.pop(f"team_link_{t.pk}", None)}
    if role == Membership.Role.OWNER:
        context["invitations"] = list(t.invitations.filter(status=Invitation.Status.PENDING)
                                      .select_related("invitee").order_by("-created_at"))
    if request.user.is_authenticated:
        context["movable"] = list(Bot.objects.filter(owner=request.user, team__isnull=True, builtin=False)
                                  .order_by("game", "name")) if role else []
    response = render(request, "web/team.html", context)
    if context["new_link"]:
        response["Cache-Control"] = "no-store"  # the link's key is on this page once
    return response


def _team_action(request, t: Team):
    action = request.POST.get("action", "")
    user = request.user
    here = redirect("web:team", slug=t.slug)
    if action in ("invite", "link") and _too_many(request):
        return here
    try:
        if action == "leave":
            services.leave(t, user)
            messages.success(request, _("You left %(team)s.") % {"team": t.name})
            return redirect("web:teams")
        if action == "invite":
            inv = services.invite_user(t, user, request.POST.get("username", ""))
            messages.success(request, _("%(user)s is invited; they accept it on their Teams page.") % {"user": inv.invitee.username})  # type: ignore[union-attr]  # named
        elif action == "link":
            inv, key = services.invite_link(t, user)
            request.session[f"team_link_{t.pk}"] = request.build_absolute_uri(reverse("web:team-join", args=[key]))
            messages.success(request, _("A new invitation link was made: the first person to open it joins."))
        elif action == "revoke":
            inv = get_object_or_404(Invitation, pk=_int(request.POST.get("invitation")), team=t)
            services.revoke(inv, user)
            messages.success(request, _("Invitation withdrawn."))
        elif action in ("role", "remove"):
            member = get_object_or_404(User, pk=_int(request.POST.get("user")))
            if action == "role":
                services.set_role(t, user, member, request.POST.get("role", ""))
                messages.success(request, (_("%(user)s is now an owner.") if request.POST.get("role") == "owner"
                                           else _("%(user)s is now a member.")) % {"user": member.username})
            else:
                services.remove_member(t, user, member)
                messages.success(request, _("%(user)s is no longer a member.") % {"user": member.username})
        elif action == "delete":
            services.delete_team(t, user)
            messages.success(request, _("Team %(team)s deleted.") % {"team": t.name})
            return redirect("web:teams")
        elif action in ("bot-in", "bot-out"):
            bot = get_object_or_404(Bot, pk=_int(request.POST.get("bot")))
            if action == "bot-in":
                ownership.transfer(bot, user, team=t)
                messages.success(request, _("%(bot)s now belongs to %(owner)s.") % {"bot": bot.name, "owner": t.name})
            else:
                if bot.team_id != t.pk:
                    raise Http404("not a bot of this team")
                to = get_object_or_404(User, pk=_int(request.POST.get("user")))
                ownership.transfer(bot, user, to_user=to)
                messages.success(request, _("%(bot)s now belongs to %(owner)s.") % {"bot": bot.name, "owner": to.username})
        else:
            messages.error(request, _("Unknown action."))
    except (services.TeamRefused, ownership.TransferRefused) as exc:
        messages.error(request, str(exc))
    return here


@login_required(login_url="web:login")
def join(request, key: str):
    """A link invitation: the team's name and an "Accept" button (a GET never joins anyone: link previews and
    crawlers open links too)."""
    try:
        inv = services.by_key(key)
    except services.TeamRefused:
        raise Http404("no such invitation") from None
    if request.method == "POST":
        try:
            services.accept(inv, request.user, key=key)
        except services.TeamRefused as exc:
            messages.error(request, str(exc))
            return redirect("web:teams")
        messages.success(request, _("You joined %(team)s.") % {"team": inv.team.name})
        return redirect("web:team", slug=inv.team.slug)
    response = render(request, "web/team_join.html", {"inv": inv, "member": services.is_member(inv.team, request.user),
                                                      "expired": inv.expires_at <= timezone.now()})
    response["Cache-Control"] = "no-store"
    # the key is in this address: never send it to another site ("no-referrer" would make the form post
    # Origin: null, which CSRF refuses)
    response["Referrer-Policy"] = "same-origin"
    return response
