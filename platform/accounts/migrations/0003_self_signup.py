"""SelfSignup: which accounts signed up by themselves (held back until verified). Accounts that have an address
on record in allauth's table signed up through a form or a provider: they get the flag."""

from django.conf import settings
from django.db import migrations, models


def flag_signed_up_accounts(apps, schema_editor):
    EmailAddress = apps.get_model("account", "EmailAddress")
    SelfSignup = apps.get_model("accounts", "SelfSignup")
    users = EmailAddress.objects.values_list("user_id", flat=True).distinct()
    SelfSignup.objects.bulk_create([SelfSignup(user_id=pk) for pk in users], ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_retired_names"),
        ("account", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SelfSignup",
            fields=[
                ("user", models.OneToOneField(on_delete=models.deletion.CASCADE, primary_key=True,
                                              related_name="self_signup", serialize=False,
                                              to=settings.AUTH_USER_MODEL)),
                ("signed_up_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.RunPython(flag_signed_up_accounts, migrations.RunPython.noop),
    ]
