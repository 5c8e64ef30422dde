"""The pages of a table with several people (`tables`): the table's own page (`/tables/<id>/`, for its creator
and the people seated: who sits where, the invitation link for its creator, "cancel"; it polls `state/` and
sends everyone to the match once it starts) and the invitation (`/tables/join/<key>/`: what the table is; a POST
takes a free seat). A GET never takes a seat. Refusals are `tables.services.TableRefused` with their status."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

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
    if not request.user.is_authenticated:
        raise Http404("no such table")
    try:
        services.cancel(table_id, request.user)
    except services.TableRefused as exc:
        if exc.status == 404:
            raise Http404(str(exc)) from None
    return redirect("web:table", table_id=table_id)


def table_invite(request, key: str):
    """The invitation: GET shows the table (never takes a seat); POST (with the CSRF token) takes a free one."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={request.path}")
    error, status, t = "", 200, None
    try:
        if request.method == "POST":
            t = services.join(key, request.user)
            return redirect("web:table", table_id=t.pk)
        t = services.by_key(key)
        services.free_seats(t, list(t.seats.all()), request.user)  # what a POST would say, said now
    except services.TableRefused as exc:
        error, status = str(exc), exc.status
        if t is None and exc.status != 404:
            t = services.by_key(key)
    seated = t is not None and t.seats.filter(person=request.user).exists()
    if seated and request.method == "GET":
        error, status = "", 200  # their own table: the link to it
    response = render(request, "web/table_invite.html", {
        "table": t if status != 404 else None, "state": services.state(t, request.user) if t else None,
        "error": error, "seated": seated, "clock": _clock_label(t) if t else ""}, status=status)
    response["Cache-Control"] = "no-store"
    # the key is in this address: never send it to another site ("no-referrer" would make the form post
    # Origin: null, which CSRF refuses)
    response["Referrer-Policy"] = "same-origin"
    return response
