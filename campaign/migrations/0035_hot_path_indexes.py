"""The hot paths of a site with many campaigns: indexes that read only the rows
each query wants, however many campaigns the site holds.

- the clock: the open phases' deadlines (an expression, null for the resolved phases,
  a campaign's whole history, so that its statistics are the open phases':
  readiness.due_phases), and the seats whose away period is not yet noticed
  (scheduling.begun_away_periods);
- the lobby: the campaigns listed there, and those with a power in civil disorder
  (campaign/people/lobby.py in_lobby).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0034_heartbeat"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="campaign",
            index=models.Index(
                condition=models.Q(
                    ("ended_at__isnull", True),
                    models.Q(("lobby_open", True), ("lobby_watch", True), _connector="OR"),
                ),
                fields=["name", "id"],
                name="campaign_in_lobby",
            ),
        ),
        migrations.AddIndex(
            model_name="phase",
            index=models.Index(
                models.Case(models.When(models.Q(("status", "open")), then=models.F("deadline"))),
                name="phase_open_deadline",
            ),
        ),
        migrations.AddIndex(
            model_name="power",
            index=models.Index(
                condition=models.Q(("disorder_since__isnull", False)),
                fields=["campaign"],
                name="power_in_disorder",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(
                    ("away_from__isnull", False), ("away_noticed", False), ("away_refused", False)
                ),
                fields=["away_from"],
                name="seat_away_to_notice",
            ),
        ),
    ]
