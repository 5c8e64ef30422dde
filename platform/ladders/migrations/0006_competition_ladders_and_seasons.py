from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ladders", "0005_version_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="ladder",
            name="listed",
            field=models.BooleanField(
                default=True, help_text="A public ladder: listed with the others, every bot of its game enrolled "
                                        "on it. A competition's own ladder is not: only its entries play there."),
        ),
        migrations.AddField(
            model_name="ladder",
            name="season_started_at",
            field=models.DateTimeField(
                blank=True, null=True, help_text="When the current season began (staff closed the one before: "
                                                 "competitions.seasons); the ratings are fitted from its games only."),
        ),
    ]
