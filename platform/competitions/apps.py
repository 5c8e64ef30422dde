from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Competitions"

    def ready(self) -> None:
        from arena_site.visibility import register

        from . import tasks  # noqa: F401  (connects the after-final receiver)
        from .visibility import hidden_from

        register(hidden_from)
