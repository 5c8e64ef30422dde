from django.apps import AppConfig


class VersionTestsConfig(AppConfig):
    name = "versiontests"
    verbose_name = "Version tests (SPRT)"

    def ready(self) -> None:
        from . import receivers, tasks  # noqa: F401  (connects the after-match hook; stops a deleted account's tests)
