"""When the clock and the task worker were last seen running (campaign/jobs/heartbeat.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0033_task_paths_by_subpackage"),
    ]

    operations = [
        migrations.CreateModel(
            name="Heartbeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        choices=[("clock", "manage.py clock"), ("worker", "manage.py db_worker")],
                        max_length=20,
                        unique=True,
                    ),
                ),
                ("seen_at", models.DateTimeField()),
            ],
            options={
                "ordering": ["name"],
            },
        ),
    ]
