from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('botregistry', '0010_retired_at_says_every_reason'),
    ]

    operations = [
        migrations.AddField(
            model_name='botversion',
            name='resumed_at',
            field=models.DateTimeField(blank=True, help_text='When its owner last resumed it after a suspension: the suspension rule counts only matches finished since (matches.suspension).', null=True),
        ),
    ]
