#!/usr/bin/env python3
"""Django's command-line utility for the Arena platform (code in platform/, never importable as `platform`)."""
import os
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
