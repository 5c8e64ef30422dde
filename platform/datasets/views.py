"""The ladders' datasets on the site and the API: the list of shards with the schema, and the files themselves.

Everything here is public (a shard only holds matches whose deal is public): no log-in, no per-user view. A file
is served from storage by its recorded name only: the name in the URL must be one of the ladder's shards (or its
schema file), so no path a visitor writes ever reaches storage.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from arena_site import objects
from datasets import shards
from datasets.models import Shard
from ladders.models import Ladder

SCHEMA_FILE = "schema.json"
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")


def listing(request: HttpRequest, ladder: Ladder) -> dict[str, Any]:
    """The ladder's dataset as the API gives it: the schema's address and every shard with its address."""
    def url(name: str) -> str:
        return request.build_absolute_uri(reverse("web:ladder-dataset-file", args=[ladder.slug, name]))

    rows = Shard.objects.filter(ladder=ladder).order_by("number")
    return {"ladder": ladder.slug, "format": shards.FORMAT, "schema": url(SCHEMA_FILE),
            "shards": [{"number": s.number, "name": s.file_name, "url": url(s.file_name), "rows": s.rows,
                        "matches": s.matches, "first_match": s.first_match, "last_match": s.last_match,
                        "bytes": s.size, "sha256": s.sha256, "created_at": s.created_at.isoformat()}
                       for s in rows]}


def page(request: HttpRequest, slug: str) -> HttpResponse:
    ladder = get_object_or_404(Ladder, slug=slug)
    doc = listing(request, ladder)
    return render(request, "datasets/ladder_datasets.html", {
        "ladder": ladder, "shards": doc["shards"], "schema_url": doc["schema"],
        "columns": shards.COLUMNS, "obs_version": shards.OBS_VERSION,
        "rows": sum(s["rows"] for s in doc["shards"]), "matches": sum(s["matches"] for s in doc["shards"])})


def file(request: HttpRequest, slug: str, name: str) -> FileResponse:
    if not _FILE_NAME.fullmatch(name):  # a NUL byte or a path: never a shard's name, never sent to the database
        raise Http404("no such file")
    ladder = get_object_or_404(Ladder, slug=slug)
    if name == SCHEMA_FILE:
        if not Shard.objects.filter(ladder=ladder).exists():
            raise Http404("this ladder has no dataset yet")
        path, kind = f"{shards.folder(ladder)}/{SCHEMA_FILE}", "application/json"
    else:
        shard = Shard.objects.filter(ladder=ladder, path=f"{shards.folder(ladder)}/{name}").first()
        if shard is None:
            raise Http404("no such shard")
        path, kind = shard.path, "application/vnd.apache.parquet"
    try:
        f = objects.storage().open(path, "rb")
    except FileNotFoundError:
        raise Http404("the file is not in storage") from None
    response = FileResponse(f, as_attachment=name != SCHEMA_FILE, filename=name, content_type=kind)
    response["Cache-Control"] = "public, max-age=86400, immutable" if name != SCHEMA_FILE else "public, max-age=300"
    return response


@extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A ladder's public dataset: its schema and shards")
@api_view(["GET"])
@permission_classes([AllowAny])
def api_listing(request: Request, slug: str) -> Response:
    """A ladder's public dataset: the schema file's address and every Parquet shard (rows, matches, size,
    SHA-256, address), oldest first. Shards never change; new matches come as new shards."""
    ladder = get_object_or_404(Ladder, slug=slug)
    return Response(listing(request._request, ladder))
