"""Team.skeleton: the look-alike form of a team's name (accounts.names.skeleton), indexed, so a new team's name is
compared with every other team's in one query (teams.services.check_name)."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from accounts.names import skeleton

    Team = apps.get_model("teams", "Team")
    for team in Team.objects.only("pk", "name").iterator():
        Team.objects.filter(pk=team.pk).update(skeleton=skeleton(team.name)[:400])


class Migration(migrations.Migration):

    dependencies = [
        ("teams", "0001_teams_members_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="team",
            name="skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=400,
                                   help_text="accounts.names.skeleton(name): look-alike names share it "
                                             "(teams.services)."),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
