# A retired bot (its owner deleted their account) plays no more games; its matches and ratings stay.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('botregistry', '0005_bot_team'),
    ]

    operations = [
        migrations.AddField(
            model_name='bot',
            name='retired_at',
            field=models.DateTimeField(blank=True, help_text='When the bot was retired (its owner deleted their account): it plays no more games; its matches and ratings stay.', null=True),
        ),
    ]
