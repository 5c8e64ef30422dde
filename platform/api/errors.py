"""The API's error handler: every client mistake becomes a 4xx with a plain message, never a 500.

DRF already turns its own exceptions into 4xx; this adds Django's `ValidationError` and `ObjectDoesNotExist`,
which would otherwise surface as 500. Malformed ids in filters are validated where they are read.

Messages speak the request's language (Accept-Language, through LocaleMiddleware): DRF's own are translated by its
catalogs; Django's `get_object_or_404` says "No Bot matches the given query." in English only, so a 404 without a
message of Arena's own says DRF's translated "Not found." instead.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, ObjectDoesNotExist):
        exc = exceptions.NotFound()
    elif isinstance(exc, Http404) and str(exc).endswith("matches the given query."):
        exc = exceptions.NotFound()
    return drf_exception_handler(exc, context)
