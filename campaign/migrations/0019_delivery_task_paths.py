"""Sending mail and webhooks moved from campaign.tasks to campaign.delivery: a task
already queued (a retry waiting, say) runs under its new path."""

from django.db import migrations

MOVED = {
    "campaign.tasks.deliver_mail": "campaign.delivery.deliver_mail",
    "campaign.tasks.deliver_webhook": "campaign.delivery.deliver_webhook",
}


def move(paths):
    def run(apps, schema_editor):
        TaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
        for old, new in paths.items():
            TaskResult.objects.filter(task_path=old).update(task_path=new)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0018_ruleset_tables_to_their_apps"),
        ("django_tasks_database", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(move(MOVED), move({new: old for old, new in MOVED.items()})),
    ]
