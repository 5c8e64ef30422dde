from django.apps import AppConfig


class BotRegistryConfig(AppConfig):
    name = "botregistry"
    verbose_name = "Bots"
