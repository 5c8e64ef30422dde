from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from botregistry.services import register_builtin


def builtin_folders(root: Path) -> list[Path]:
    """Bot folders under bots/<language>/<name>/ holding a bot.toml (SDKs and starter kits without one are
    not bots)."""
    return sorted(p.parent for p in root.glob("*/*/bot.toml"))


class Command(BaseCommand):
    help = "Register the built-in bots (bots/<language>/<name>/) as trusted, ready bots on their ladders."

    def add_arguments(self, parser):
        parser.add_argument("folders", nargs="*", help="bot folders (default: every bots/*/*/bot.toml)")

    def handle(self, *args, folders, **options):
        paths = [Path(f) for f in folders] or builtin_folders(Path(settings.BUILTIN_BOTS_DIR))
        if not paths:
            raise CommandError(f"no built-in bots found under {settings.BUILTIN_BOTS_DIR}")
        from arena.botbuild import BuildError
        from arena.botpkg import ManifestError
        from arena.sandbox import RuntimeMissing
        for folder in paths:
            try:
                versions = register_builtin(folder)
            except (ManifestError, BuildError, RuntimeMissing) as exc:  # RuntimeMissing: C++ build kit not built
                self.stderr.write(f"skipped {folder}: {exc}")
                continue
            for version in versions:
                self.stdout.write(f"built-in bot {version.bot.name} ({version.bot.game}) version {version.number}")
