from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0005_match_unwritten_logs'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='host_voids',
            field=models.PositiveSmallIntegerField(default=0, help_text='How often it was set aside as void because of host trouble (not a bot\'s doing) and queued again; at ARENA_HOST_VOID_RETRIES more it fails with the reason.'),
        ),
    ]
