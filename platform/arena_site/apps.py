from django.apps import AppConfig


class ArenaSiteConfig(AppConfig):
    name = "arena_site"
    verbose_name = "Arena"
