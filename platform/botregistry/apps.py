from django.apps import AppConfig


class BotRegistryConfig(AppConfig):
    name = "botregistry"
    verbose_name = "Bots"

    def ready(self) -> None:
        from accounts.names import protect_names_from
        from botregistry.services import builtin_bot_names

        from . import receivers  # noqa: F401  (retires a deleted account's bots: accounts.signals)

        protect_names_from(builtin_bot_names)  # no bot and no user may pass for a built-in bot
