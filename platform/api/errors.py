"""The API's error handler: every client mistake becomes a 4xx with a plain message, never a 500.

DRF already turns its own exceptions into 4xx; this adds Django's `ValidationError` and `ObjectDoesNotExist`,
which would otherwise surface as 500. Malformed ids in filters are validated where they are read.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, ObjectDoesNotExist):
        exc = exceptions.NotFound(str(exc) or "not found")
    return drf_exception_handler(exc, context)
