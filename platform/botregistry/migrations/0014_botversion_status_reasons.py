"""A version's reason as codes and parameters (arena.reasons), told in each reader's language."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('botregistry', '0013_bot_people_may_play'),
    ]

    operations = [
        migrations.AddField(
            model_name='botversion',
            name='status_reasons',
            field=models.JSONField(blank=True, default=list, help_text="status_reason as arena.reasons codes and parameters, told in each reader's language (botregistry.reasons); [] for a reason in words only."),
        ),
    ]
