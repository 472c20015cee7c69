"""A user who chose neither a language nor a time zone is mailed in those his browser
reads the site in: the middleware keeps them on his profile (written only when they
change), and the mail is written with them; a choice made in the preferences wins."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from campaign import outgoing
from campaign.models import Profile

pytestmark = pytest.mark.django_db


def browse(client, language: str, zone: str):
    client.cookies["tz"] = zone
    return client.get(reverse("campaign:list"), HTTP_ACCEPT_LANGUAGE=language)


def test_the_browsers_language_and_zone_are_kept_for_the_mail(client_as, users):
    client = client_as("player")
    assert browse(client, "el", "Europe/Athens").status_code == 200
    profile = Profile.objects.get(user=users["player"])
    assert (profile.browser_language, profile.browser_time_zone) == ("el", "Europe/Athens")
    with outgoing.reading_as(users["player"]):
        assert translation.get_language() == "el"
        assert timezone.get_current_timezone_name() == "Europe/Athens"
        assert outgoing.moment(datetime(2026, 12, 6, 12, tzinfo=UTC)).endswith(
            "14:00 (Europe/Athens)"
        )


def test_the_profile_is_written_only_when_the_browser_changes(client_as, users):
    client = client_as("player")
    browse(client, "ru", "Europe/Moscow")
    with CaptureQueriesContext(connection) as queries:
        browse(client, "ru", "Europe/Moscow")
    assert not [q for q in queries if "campaign_profile" in q["sql"] and "UPDATE" in q["sql"]]
    browse(client, "ru", "Asia/Yekaterinburg")
    assert Profile.objects.get(user=users["player"]).browser_time_zone == "Asia/Yekaterinburg"


def test_a_made_up_zone_is_not_kept(client_as, users):
    browse(client_as("player"), "en", "Mars/Olympus_Mons")
    assert Profile.objects.get(user=users["player"]).browser_time_zone == ""
    with outgoing.reading_as(users["player"]):
        assert timezone.get_current_timezone_name() == "UTC"


def test_a_choice_in_the_preferences_wins_over_the_browser(client_as, users):
    browse(client_as("player"), "el", "Europe/Athens")
    Profile.objects.filter(user=users["player"]).update(language="ru", time_zone="Asia/Tokyo")
    with outgoing.reading_as(users["player"]):
        assert translation.get_language() == "ru"
        assert timezone.get_current_timezone_name() == "Asia/Tokyo"
