"""The API's JSON parser (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]): DRF's, except that a body nested too deeply
for Python's decoder (`[[[[…]]]]`, a few kilobytes) is a 400 like any other malformed JSON, not a 500
(`json.loads` raises RecursionError, which DRF does not turn into a ParseError)."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
