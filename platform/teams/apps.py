from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = "Teams"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (account deletion: leave every team, keep an owner)
