from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (cancels a deleted account's queued matches: accounts.signals)
