"""Tournament seeds become secrets: a random 63-bit default instead of 0, and scheduled tournaments that still
or running tournaments that still have the old public default get a fresh secret: rounds are made one at a time,
so the rounds still to come are derived from a secret nobody knows (those already made keep their seeds)."""

import matches.seeds
from django.db import migrations, models


def fresh_secrets(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.filter(status__in=["scheduled", "running"], seed=0):
        t.seed = matches.seeds.new_seed()
        t.save(update_fields=["seed"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_pinned_version_restrict'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='seed',
            field=models.BigIntegerField(default=matches.seeds.new_seed, help_text="The tournament's secret: every game seed is derived from it (HMAC), so it is random by default and shown to staff only until the tournament ends."),
        ),
        migrations.RunPython(fresh_secrets, migrations.RunPython.noop),
    ]
