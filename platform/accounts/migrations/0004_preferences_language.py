import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_self_signup"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Preferences",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                              related_name="preferences", serialize=False,
                                              to=settings.AUTH_USER_MODEL)),
                ("language", models.CharField(blank=True, choices=[("en", "English"), ("pt-br", "Português (Brasil)"),
                                                                    ("zh-hans", "简体中文")],
                                              default="", help_text="The language of the site and of the emails (a code of LANGUAGES).",
                                              max_length=16)),
            ],
            options={"verbose_name_plural": "preferences"},
        ),
    ]
