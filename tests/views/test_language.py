"""The interface language: the browser's by default, the switcher's cookie for anyone,
the profile's for a signed-in user who chose one."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Order, Profile
from tests.factories import make_eia_campaign, seat_users


def page_language(response) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("language", ["el", "ru"])
def test_the_browsers_language_is_used(language, db):
    response = Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert page_language(response) == language
    assert response.headers["Content-Language"] == language


def test_an_unoffered_language_falls_back_to_english(db):
    response = Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr")
    assert page_language(response) == "en"


def test_anonymous_users_switch_language(db):
    client = Client()
    login = reverse("login")
    html = client.get(login).content.decode()
    assert f'action="{reverse("set_language")}"' in html and 'name="language"' in html
    response = client.post(reverse("set_language"), {"language": "ru", "next": login})
    assert response.status_code == 302 and response.url == login
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert page_language(client.get(login, HTTP_ACCEPT_LANGUAGE="el")) == "ru"


def test_the_profiles_language_wins_for_a_signed_in_user(users):
    Profile.objects.create(user=users["player"], language="ru")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    client.force_login(users["player"])
    url = reverse("campaign:list")
    assert page_language(client.get(url, HTTP_ACCEPT_LANGUAGE="el")) == "ru"


def test_without_a_chosen_language_a_signed_in_user_gets_the_browsers(users):
    client = Client()
    client.force_login(users["player"])
    response = client.get(reverse("campaign:list"), HTTP_ACCEPT_LANGUAGE="el")
    assert page_language(response) == "el"


def test_the_preferences_save_the_language(users):
    client = Client()
    client.force_login(users["player"])
    url = reverse("campaign:preferences")
    html = client.get(url).content.decode()
    assert 'name="language"' in html and 'value="el"' in html and "Ελληνικά" in html
    response = client.post(url, {"language": "el", "reminder_hours": "24, 2"})
    assert response.status_code == 302
    assert Profile.objects.get(user=users["player"]).language == "el"
    assert page_language(client.get(url, HTTP_ACCEPT_LANGUAGE="ru")) == "el"

    later = Client()  # a new login reads the language from the profile
    later.force_login(users["player"])
    assert page_language(later.get(url, HTTP_ACCEPT_LANGUAGE="ru")) == "el"

    assert client.post(url, {"language": "", "reminder_hours": "24, 2"}).status_code == 302
    assert page_language(client.get(url, HTTP_ACCEPT_LANGUAGE="ru")) == "ru"


def test_an_unknown_language_is_refused(users):
    client = Client()
    client.force_login(users["player"])
    response = client.post(reverse("campaign:preferences"), {"language": "xx"})
    assert response.status_code == 422
    assert "“xx” is not a language Courier speaks" in response.content.decode()
    assert not Profile.objects.filter(user=users["player"]).exclude(language="").exists()


@pytest.mark.parametrize(
    "language, month", [("en", "January 1805"), ("el", "Ιανουάριος 1805"), ("ru", "Январь 1805")]
)
def test_the_logs_turn_names_are_in_the_readers_language(language, month, users):
    """The log stores a phase opening's turn as a message, not as the words of whoever
    opened it: every reader gets the month in their language."""
    campaign = make_eia_campaign()
    client = Client()
    client.force_login(seat_users(campaign)["player"])
    html = client.get(campaign.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content
    log = html.decode().split('id="log"', 1)[1]
    assert f"{month}:" in log and (language == "en" or "January 1805" not in log)


@pytest.mark.parametrize("language, saved", [("el", "5\xa0λεπτά"), ("ru", "5\xa0минут")])
def test_how_long_ago_orders_were_saved_reads_in_the_readers_language(language, saved, db):
    """Django's own Greek catalog leaves its durations untranslated: Courier's give them
    (five minutes on: under a minute is "less than a minute", tests/unit/test_durations.py)."""
    campaign = make_eia_campaign()
    client = Client()
    client.force_login(seat_users(campaign)["other_player"])
    draft = {"phase": campaign.phase_id, "ready": "0", "lapse": ["palatinate"]}
    client.post(reverse("campaign:orders", args=[campaign.pk]), draft)
    earlier = timezone.now() - timedelta(minutes=5, seconds=10)
    Order.objects.filter(phase_id=campaign.phase_id).update(updated_at=earlier)
    html = client.get(campaign.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content
    status = html.decode().split('id="orders-status"', 1)[1].split("</p>", 1)[0]
    assert saved in status and "minute" not in status
