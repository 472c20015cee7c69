"""The modules that define tasks moved into the campaign app's subpackages: a task already
queued (a retry waiting, a resolution due) runs under its new path."""

from django.db import migrations

MOVED = {
    "campaign.account_mail.send_confirmation": "campaign.people.account_mail.send_confirmation",
    "campaign.account_mail.send_password_reset": "campaign.people.account_mail.send_password_reset",
    "campaign.delivery.deliver_mail": "campaign.notify.delivery.deliver_mail",
    "campaign.delivery.deliver_webhook": "campaign.notify.delivery.deliver_webhook",
    "campaign.push.deliver_push": "campaign.notify.push.deliver_push",
    "campaign.tasks.resolve_phase": "campaign.jobs.tasks.resolve_phase",
    "campaign.tasks.send_press_digests": "campaign.jobs.tasks.send_press_digests",
    "campaign.tasks.settle_campaign": "campaign.jobs.tasks.settle_campaign",
    "campaign.tasks.tick": "campaign.jobs.tasks.tick",
}


def move(paths):
    def run(apps, schema_editor):
        TaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
        for old, new in paths.items():
            TaskResult.objects.filter(task_path=old).update(task_path=new)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0032_power_and_area_columns_to_their_ruleset"),
        ("django_tasks_database", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(move(MOVED), move({new: old for old, new in MOVED.items()})),
    ]
