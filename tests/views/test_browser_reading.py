"""A user who chose neither a language nor a time zone is mailed in those of the browser
he logs in with: the login keeps them on his profile, and the mail is written with
them; a choice made in the preferences wins."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from campaign.models import Profile
from campaign.notify import outgoing
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(user, language: str, zone: str) -> Client:
    """Log in through the login page, from a browser reading in ``language`` and whose
    script told its time zone (static/courier/timezone.js's cookie)."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["tz"] = zone
    data = {"username": user.get_username(), "password": PASSWORD}
    assert client.post(reverse("login"), data).status_code == 302
    return client


def test_the_browsers_language_and_zone_are_kept_for_the_mail(users):
    log_in(users["player"], "el", "Europe/Athens")
    profile = Profile.objects.get(user=users["player"])
    assert (profile.browser_language, profile.browser_time_zone) == ("el", "Europe/Athens")
    with outgoing.reading_as(users["player"]):
        assert translation.get_language() == "el"
        assert outgoing.moment(datetime(2026, 12, 6, 12, tzinfo=UTC)) == (
            "06/12/2026, 14:00 (Europe/Athens)"
        )


def test_the_next_login_from_another_browser_replaces_them(users):
    log_in(users["player"], "ru", "Europe/Moscow")
    log_in(users["player"], "en", "Asia/Yekaterinburg")
    profile = Profile.objects.get(user=users["player"])
    assert (profile.browser_language, profile.browser_time_zone) == ("en", "Asia/Yekaterinburg")


def test_a_made_up_zone_is_not_kept(users):
    log_in(users["player"], "en", "Mars/Olympus_Mons")
    assert Profile.objects.get(user=users["player"]).browser_time_zone == ""
    with outgoing.reading_as(users["player"]):
        assert timezone.get_current_timezone_name() == "UTC"


def test_a_choice_in_the_preferences_wins_over_the_browser(users):
    log_in(users["player"], "el", "Europe/Athens")
    Profile.objects.filter(user=users["player"]).update(language="ru", time_zone="Asia/Tokyo")
    with outgoing.reading_as(users["player"]):
        assert translation.get_language() == "ru"
        assert timezone.get_current_timezone_name() == "Asia/Tokyo"
