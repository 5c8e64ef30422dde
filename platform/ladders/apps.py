from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Ladders"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the ratings to botregistry.signals)
