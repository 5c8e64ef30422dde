"""The pages of a table with several people (`tables`): the table's own page (`/tables/<id>/`, for its creator
and the people seated: who sits where, the invitation link for its creator, "cancel" for its creator and "leave"
for the others (`table_leave`: the seat is free again); it polls `state/` and
sends everyone to the match once it starts) and the invitation (`/tables/join/<key>/`: what the table is; a POST
takes a free seat). A GET never takes a seat. Refusals are `tables.services.TableRefused` with their status."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts import throttles
from tables import services
from tables.forms import CLOCKS
from tables.models import Table


def _clock_label(table: Table) -> str:
    return next((str(label) for label, clock in CLOCKS.values() if clock == table.clock), "")


def _table(request, table_id: int) -> Table:
    if not request.user.is_authenticated:
        raise Http404("no such table")
    try:
        return services.of(table_id, request.user)
    except services.TableRefused as exc:
        raise Http404(str(exc)) from None


def table(request, table_id: int):
    """The table's page. Its creator arrives from /play/ with the invitation's key in the address's fragment
    (`#invite=<key>`), which the page's script turns into the link to send: the key never reaches the server
    again."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={request.path}")
    t = _table(request, table_id)
    if t.status == Table.Status.STARTED and t.match_id:  # everyone at the table goes to its match
        return redirect("web:match", match_id=t.match_id)
    response = render(request, "web/table.html", {
        "table": t, "state": services.state(t, request.user), "clock": _clock_label(t),
        "is_creator": t.creator_id == request.user.pk})
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


@require_GET
def table_state(request, table_id: int):
    t = _table(request, table_id)
    response = JsonResponse(services.state(t, request.user))
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def table_cancel(request, table_id: int):
    _refused(services.cancel, request, table_id)  # refused or not, the table's page tells where it stands
    return redirect("web:table", table_id=table_id)


@require_POST
def table_leave(request, table_id: int):
    """A seated person who is not the table's creator leaves the open table: their seat is free again."""
    if _refused(services.leave, request, table_id):
        return redirect("web:table", table_id=table_id)  # the page says why (the creator's, a started table)
    messages.success(request, gettext("You left the table: your seat is free again."))
    return redirect("web:play-new")


def table_invite(request, key: str):
    """The invitation: GET shows the table (never takes a seat); POST (with the CSRF token) takes a free one."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={request.path}")
    error, status = "", 200
    if request.method == "POST":
        if (wait := throttles.throttled(request, throttles.TABLE_JOIN)) is not None:
            error, status = gettext("You took seats too often: try again in %(s)d s.") % {"s": int(wait) + 1}, 429
        else:
            try:
                return redirect("web:table", table_id=services.join(key, request.user).pk)
            except services.TableRefused as exc:
                error, status = str(exc), exc.status
    try:
        t: Table | None = services.by_key(key)
    except services.TableRefused as exc:
        t = None
        if status == 200:
            error, status = str(exc), exc.status
    # the seats read once: for who sits where, whether the person is seated, what a POST would say
    seats = list(t.seats.select_related("person", "version__bot").order_by("seat")) if t is not None else []
    seated = any(s.person_id == request.user.pk for s in seats)
    if t is not None and request.method == "GET":
        try:
            services.free_seats(t, seats, request.user)  # what a POST would say, said now
        except services.TableRefused as exc:
            error, status = str(exc), exc.status
        if seated:
            error, status = "", 200  # their own table: the link to it
    response = render(request, "web/table_invite.html", {
        "table": t, "state": services.state(t, request.user, seats) if t else None,
        "error": error, "seated": seated, "clock": _clock_label(t) if t else ""}, status=status)
    response["Cache-Control"] = "no-store"
    # the key is in this address: never send it to another site ("no-referrer" would make the form post
    # Origin: null, which CSRF refuses)
    response["Referrer-Policy"] = "same-origin"
    return response


def _refused(act: Callable[[int, Any], object], request, table_id: int) -> bool:
    """Do `act(table_id, user)` for a signed-in user: True when the table refused (the table's page says why),
    404 for a stranger, an unknown table or one the user may not see."""
    if not request.user.is_authenticated:
        raise Http404("no such table")
    try:
        act(table_id, request.user)
    except services.TableRefused as exc:
        if exc.status == 404:
            raise Http404(str(exc)) from None
        return True
    return False
