"""A power's treasury and political points and an area's ceded flag and manpower were one
ruleset's: its own migration (run before this one) has moved them to its tables."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0031_reach"),
    ]

    operations = [
        migrations.RemoveField(model_name="power", name="treasury"),
        migrations.RemoveField(model_name="power", name="political_points"),
        migrations.RemoveField(model_name="area", name="ceded"),
        migrations.RemoveField(model_name="area", name="manpower"),
    ]
