"""BotVersion.uploaded_by: who uploaded each version. Versions uploaded before it was recorded get their bot's
owner (until teams, the only person who could upload to it)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def uploaded_by_owner(apps, schema_editor):
    BotVersion = apps.get_model("botregistry", "BotVersion")
    Bot = apps.get_model("botregistry", "Bot")
    BotVersion.objects.filter(uploaded_by__isnull=True).update(
        uploaded_by=models.Subquery(Bot.objects.filter(pk=models.OuterRef("bot_id")).values("owner_id")[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ('botregistry', '0008_version_package_hash'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='botversion',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, help_text="Who uploaded it (a team bot's versions come from any of its members; built-in bots': the house). Versions from before this was recorded: their bot's owner. Empty once that account is gone from the database (a deleted account keeps its emptied row, shown as 'deleted account').", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='uploaded_versions', to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(uploaded_by_owner, migrations.RunPython.noop),
    ]
