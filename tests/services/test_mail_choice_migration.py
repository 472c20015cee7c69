"""Migration 0027: a mail the user had turned off in his profile stays off in each
campaign he sits in (and back again when undone)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign.models import MailChoice, PressMail
from tests.factories import make_eia_campaign, seat_users
from tests.migration_steps import latest, migrate

BEFORE = [("campaign", "0026_email_confirmation")]
AFTER = [("campaign", "0027_mail_choices")]


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_mail_turned_off_in_the_profile_stays_off_in_each_campaign():
    campaign = make_eia_campaign()
    player = seat_users(campaign)["player"]
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("campaign", "Profile")
    old.objects.update_or_create(
        user_id=player.pk, defaults={"mail_reminders": False, "mail_press_digest": False}
    )
    migrate(latest())
    choice = MailChoice.objects.get(user=player, campaign=campaign)
    assert (choice.your_turn, choice.reminders, choice.resolved, choice.press) == (
        True,
        False,
        True,
        PressMail.OFF,
    )

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("campaign", "Profile")
    profile = old.objects.get(user_id=player.pk)
    assert (profile.mail_reminders, profile.mail_press_digest, profile.mail_phase_opened) == (
        False,
        False,
        True,
    )
    migrate(latest())
