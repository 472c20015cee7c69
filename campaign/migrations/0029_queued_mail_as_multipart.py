"""A mail queued before mail became multipart (deliver_mail(recipient, subject, body), a
retry waiting, say) is queued again as the mail the task now takes, its text part the
body and its HTML part that body escaped: it is sent, not lost to a changed signature."""

import html

from django.db import migrations

READY = "READY"
MAIL = "campaign.delivery.deliver_mail"


def as_multipart(apps, schema_editor):
    TaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    for queued in TaskResult.objects.filter(task_path=MAIL, status=READY):
        args = queued.args_kwargs.get("args") or []
        if len(args) != 3:
            continue
        recipient, subject, body = args
        paragraphs = "".join(f"<p>{html.escape(part)}</p>" for part in body.split("\n\n"))
        mail = {
            "to": recipient,
            "subject": subject,
            "text": body,
            "html": f'<!DOCTYPE html><html><body style="white-space:pre-wrap">{paragraphs}'
            "</body></html>",
            "headers": {"Auto-Submitted": "auto-generated"},
            "reply_to": "",
        }
        queued.args_kwargs = {**queued.args_kwargs, "args": [mail]}
        queued.save(update_fields=["args_kwargs"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0028_browser_reading"),
        ("django_tasks_database", "0001_initial"),
    ]

    operations = [migrations.RunPython(as_multipart, migrations.RunPython.noop)]
