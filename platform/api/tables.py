"""REST API of sitting down to play: `POST /api/human-matches/` (a match against bots), `POST /api/tables/` (a
table with seats for people you invite: its invitation key is in the answer, once), `GET /api/tables/{id}/`
(its seats, for its creator and the people seated), `POST /api/tables/{id}/cancel/` (its creator) and
`POST /api/tables/join/` {"key"} (take a free seat), `POST /api/tables/{id}/leave/` (a seated person other than its
creator frees their seat).

Both makers take the /play/ page's form (`tables.forms.PlayForm`: game, players, seat, clock, opponent1..3, each a
bot's id or "person") and are rate-limited like the page (`accounts.throttles.TABLES`). A refusal is its
message with its status (400, 404 unknown, 409 taken or full, 410 cancelled or expired)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import throttles
from matches.services import CannotSeat
from tables import services
from tables.forms import PERSON, PlayForm, sit_down
from tables.models import Table


class SitDownSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=["thebes", "minos"])
    players = serializers.IntegerField(min_value=2, max_value=4)
    seat = serializers.IntegerField(required=False, allow_null=True, help_text="0-based; absent: a random seat")
    clock = serializers.ChoiceField(choices=["30s", "2m"])
    opponent1 = serializers.CharField(help_text=f"a bot's id, or {PERSON!r} (tables only)")
    opponent2 = serializers.CharField(required=False)
    opponent3 = serializers.CharField(required=False)


class TableJoinSerializer(serializers.Serializer):
    key = serializers.CharField(max_length=128, help_text="The key of the table's invitation.")


def _form(request: Request, *, table: bool) -> tuple[dict[str, Any] | None, Response | None]:
    data = {k: ("" if v is None else str(v)) for k, v in request.data.items()} if hasattr(request.data, "items") \
        else {}
    form = PlayForm(data)
    if not form.is_valid():
        return None, Response(form.errors.get_json_data(), status=status.HTTP_400_BAD_REQUEST)
    wants_people = any(b is None for b in form.cleaned_data["bots"])
    if wants_people != table:
        message = (_("a table needs a seat for a person you invite (%(person)s); against bots only, ask %(url)s")
                   % {"person": PERSON, "url": "/api/human-matches/"} if not wants_people
                   else _("a match with seats for people is a table: ask %(url)s") % {"url": "/api/tables/"})
        return None, Response({"detail": message}, status=status.HTTP_400_BAD_REQUEST)
    return form.cleaned_data, None


def _person(request: Request) -> User:
    return cast(User, request.user)  # every view here is IsAuthenticated: a signed-in user


def _refused(exc: Exception) -> Response:
    return Response({"detail": str(exc)}, status=getattr(exc, "status", 400))


def _table_body(request: Request, table: Any) -> dict[str, Any]:
    return {**services.state(table, _person(request)),
            "url": request.build_absolute_uri(reverse("web:table", args=[table.pk]))}


def _table_answer(request: Request, act: Callable[[], Table]) -> Response:
    """The table `act` returns (read afresh), or its refusal."""
    try:
        table = act()
    except services.TableRefused as exc:
        return _refused(exc)
    table.refresh_from_db()
    return Response(_table_body(request, table))


class _Maker(APIView):
    """POST the /play/ form: `table` says whether it must set a table (a seat for a person) or a match."""

    permission_classes = [permissions.IsAuthenticated]
    table = False

    def get_throttles(self):
        return [t() for t in throttles.TABLES]

    def post(self, request: Request) -> Response:
        data, error = _form(request, table=self.table)
        if error is not None:
            return error
        assert data is not None
        try:
            made = sit_down(request.user, data)
        except (CannotSeat, services.TableRefused) as exc:
            return _refused(exc)
        if isinstance(made, services.NewTable):
            body = {**_table_body(request, made.table), "key": made.key,
                    "invite_url": request.build_absolute_uri(made.invite_path)}
        else:
            body = {"match": made.pk, "url": request.build_absolute_uri(reverse("web:match", args=[made.pk]))}
        return Response(body, status=status.HTTP_201_CREATED)


@extend_schema(request=SitDownSerializer, responses={201: None},
               description="Sit down against bots: a queued, unrated match of kind human; play it at its `url`.")
class HumanMatchView(_Maker):
    table = False


@extend_schema(request=SitDownSerializer, responses={201: None},
               description="Set a table: `key` and `invite_url` (its invitation, shown this once) go to the people "
                           "you invite.")
class TableListView(_Maker):
    table = True


class TableDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: None})
    def get(self, request: Request, pk: int) -> Response:
        """The table's seats and status, and its match's address once it started (404 for anyone not at it)."""
        return _table_answer(request, lambda: services.of(pk, _person(request)))


class TableCancelView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: None})
    def post(self, request: Request, pk: int) -> Response:
        """Its creator cancels an open table (409 once it started)."""
        return _table_answer(request, lambda: services.cancel(pk, _person(request)))


class TableLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: None})
    def post(self, request: Request, pk: int) -> Response:
        """A seated person who is not its creator leaves an open table: their seat is free again (404 for anyone
        not seated, 409 for its creator — who cancels — and once it started)."""
        return _table_answer(request, lambda: services.leave(pk, _person(request)))


class TableJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        return [t() for t in throttles.TABLE_JOIN]

    @extend_schema(request=TableJoinSerializer, responses={200: None})
    def post(self, request: Request) -> Response:
        """Take a free seat of the table of an invitation's key; the last seat taken starts its match."""
        ser = TableJoinSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return _table_answer(request, lambda: services.join(ser.validated_data["key"], _person(request)))
