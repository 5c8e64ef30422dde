# The names of deleted accounts stay reserved (only the SHA-256 of each name's skeleton is kept).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_hashed_api_tokens'),
    ]

    operations = [
        migrations.CreateModel(
            name='RetiredName',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(help_text="SHA-256 of the name's skeleton, hex.", max_length=64, unique=True)),
                ('retired_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
