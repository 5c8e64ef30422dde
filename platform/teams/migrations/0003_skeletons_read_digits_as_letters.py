"""Recompute Team.skeleton: accounts.names.skeleton now reads digits and signs as the letters they pass for
(3 → e, 4 → a, 5 → s, 7 → t, @ → a, $ → s), i and l as one letter, and rn as m, vv as w."""

from django.db import migrations


def recompute(apps, schema_editor):
    from accounts.names import skeleton

    Team = apps.get_model("teams", "Team")
    for team in Team.objects.only("pk", "name", "skeleton").iterator():
        new = skeleton(team.name)[:400]
        if new != team.skeleton:
            Team.objects.filter(pk=team.pk).update(skeleton=new)


class Migration(migrations.Migration):

    dependencies = [
        ("teams", "0002_team_skeleton"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
