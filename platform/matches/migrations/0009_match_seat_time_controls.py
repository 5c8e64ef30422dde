from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0008_match_people_and_human_kind'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='seat_time_controls',
            field=models.JSONField(blank=True, default=dict, help_text="Seats on a clock of their own: {seat: time control}, e.g. a person's preset beside the bots' ladder clock (`time_control`, every other seat's)."),
        ),
    ]
