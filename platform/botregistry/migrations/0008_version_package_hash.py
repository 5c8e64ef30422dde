"""A version's validated package is one object in storage named by its hash (botregistry.package_cache); new
uploads keep no unpacked folder (package_dir empty)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("botregistry", "0007_validation_claim_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="package_hash",
            field=models.CharField(
                blank=True, default="", max_length=64,
                help_text="SHA-256 of the validated package (build outputs included) stored as "
                          "packages/<hash>.tar.gz (botregistry.package_cache); workers launch the bot from their "
                          "cache of it."),
        ),
        migrations.AlterField(
            model_name="botversion",
            name="package_dir",
            field=models.CharField(
                blank=True, default="", max_length=512,
                help_text="The bot's folder: absolute for built-in bots; relative to the storage folder for "
                          "versions uploaded before packages were stored; empty for newer uploads (package_hash)."),
        ),
    ]
