"""The one error the sandbox raises at its callers."""

from __future__ import annotations


class SandboxUnavailable(RuntimeError):
    """This host cannot run an untrusted bot safely. The message says what is missing and that `--no-sandbox`
    exists for running one's own bot on one's own machine."""
