"""Hashed API tokens. Existing plaintext tokens of DRF's `authtoken` app (the table `authtoken_token`, if this
database has it) are carried over as digests, so clients keep working, and the plaintext table is dropped."""

import hashlib

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion


def carry_over_plaintext_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token = ApiToken.objects.create(user_id=user_id, digest=hashlib.sha256(key.encode()).hexdigest(),
                                        prefix=key[:8])
        ApiToken.objects.filter(pk=token.pk).update(created_at=created)
    schema_editor.execute(f"DROP TABLE {schema_editor.quote_name('authtoken_token')}")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(help_text='SHA-256 of the token, hex.', max_length=64, unique=True)),
                ('prefix', models.CharField(help_text="The token's first characters, to tell tokens apart.", max_length=8)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'API token',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.RunPython(carry_over_plaintext_tokens, migrations.RunPython.noop),
    ]
