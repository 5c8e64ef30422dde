"""Public reasons in words (issue 9): a failed version's `status_reason` used to hold the compiler's output or
the bot's own output, which anyone can read. Such reasons move to the owner-only `validation_log` and the public
field keeps one line of words; a suspension's reason loses the fault's message (it can carry the bot's output)."""

import re

from django.db import migrations

FAILED_IN_WORDS = "validation failed (the validation log, visible to the bot's owner, says why)"
SUSPENSION_DETAIL = re.compile(r"most recent \((\w+), match (\d+)\): .*?\. Upload a fixed version", re.S)


def reasons_in_words(apps, schema_editor):
    BotVersion = apps.get_model("botregistry", "BotVersion")
    for version in BotVersion.objects.filter(status="failed").exclude(status_reason="").iterator():
        old = version.status_reason
        if "\n" not in old and len(old) <= 200 and ":" not in old:
            continue  # already words
        if old not in version.validation_log:
            version.validation_log = f"{version.validation_log}\n{old}".strip()
        version.status_reason = FAILED_IN_WORDS
        version.save(update_fields=["status_reason", "validation_log"])
    for version in BotVersion.objects.filter(status="suspended", status_reason__contains="most recent (").iterator():
        version.status_reason = SUSPENSION_DETAIL.sub(r"most recent: \1 in match \2. Upload a fixed version",
                                                      version.status_reason)
        version.save(update_fields=["status_reason"])


class Migration(migrations.Migration):

    dependencies = [
        ("botregistry", "0002_validation_queued_at"),
    ]

    operations = [
        migrations.RunPython(reasons_in_words, migrations.RunPython.noop),
    ]
