"""Team.deleted_at: a team its owners deleted while its (retired) bots remain keeps its row for them, hidden from
lists and addresses (`Team.objects` leaves such teams out; `Team.all_teams` and `bot.team` reach them)."""

import django.db.models.manager
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('teams', '0003_skeletons_read_digits_as_letters'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='team',
            options={'base_manager_name': 'all_teams', 'ordering': ['name']},
        ),
        migrations.AlterModelManagers(
            name='team',
            managers=[
                ('objects', django.db.models.manager.Manager()),
                ('all_teams', django.db.models.manager.Manager()),
            ],
        ),
        migrations.AddField(
            model_name='team',
            name='deleted_at',
            field=models.DateTimeField(blank=True, help_text="When its owners deleted it while it still had (retired) bots: the row stays so their matches keep their entrant, shown as 'deleted team'; its members, invitations and name are gone (teams.services.delete_team).", null=True),
        ),
    ]
