"""The mail a campaign sends: each seat's user (GM, player, observer) chooses it on the
campaign's mail settings page, nobody else reaches the page, a bad post changes nothing;
the preferences take the reminder offsets ("8, 4, 1") and refuse what is not a list of
whole hours within a week."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import MailChoice, PressMail, Profile, SeatRequest

pytestmark = pytest.mark.django_db
PREFERENCES = reverse("campaign:preferences")


def settings_url(campaign) -> str:
    return reverse("campaign:mail_settings", args=[campaign.pk])


def choice(user_id: int, campaign) -> dict:
    found = MailChoice.of(user_id, campaign.pk)
    return {f: getattr(found, f) for f in ("your_turn", "reminders", "resolved", "press", "lobby")}


@pytest.mark.parametrize("role", ["gm", "player", "other_player", "observer"])
def test_each_seat_chooses_its_campaigns_mail(campaign, client_as, users, role):
    client = client_as(role)
    assert client.get(settings_url(campaign)).status_code == 200
    data = {"your_turn": "on", "resolved": "on", "press": PressMail.EACH}
    response = client.post(settings_url(campaign), data)
    assert response.status_code == 302
    assert choice(users[role].pk, campaign) == {
        "your_turn": True,
        "reminders": False,
        "resolved": True,
        "press": PressMail.EACH,
        "lobby": False,
    }


def test_whoever_asked_for_a_seat_chooses_the_lobbys_mail(campaign, client_as, users):
    power = campaign.powers.get(key="spain")
    SeatRequest.objects.create(campaign=campaign, power=power, user=users["outsider"])
    assert client_as("outsider").get(settings_url(campaign)).status_code == 200


def test_nobody_else_reaches_the_page(campaign, client_as):
    assert client_as("outsider").get(settings_url(campaign)).status_code == 404
    assert client_as("outsider").post(settings_url(campaign), {"press": "off"}).status_code == 404
    signed_out = client_as("anonymous").get(settings_url(campaign))
    assert signed_out.status_code == 302 and "login" in signed_out.url
    missing = reverse("campaign:mail_settings", args=[campaign.pk + 1000])
    assert client_as("player").get(missing).status_code == 404
    assert not MailChoice.objects.exists()


def test_a_bad_post_is_refused_and_changes_nothing(campaign, client_as, users):
    response = client_as("player").post(settings_url(campaign), {"press": "shout"})
    assert response.status_code == 422
    assert "press" in response.context["form"].errors
    assert not MailChoice.objects.exists()


@pytest.mark.parametrize(
    ("written", "saved"),
    [("8, 4, 1", [8, 4, 1]), ("1 24;2", [24, 2, 1]), ("2,2", [2]), ("", []), ("168", [168])],
)
def test_the_preferences_take_the_reminder_offsets(client_as, users, written, saved):
    data = {"email": "", "time_zone": "", "language": "", "reminder_hours": written}
    assert client_as("player").post(PREFERENCES, data).status_code == 302
    assert Profile.objects.get(user=users["player"]).reminder_hours == saved


@pytest.mark.parametrize("written", ["0", "169", "abc", "1.5", "-2", "١", "1,2,3,4,5,6,7"])
def test_bad_reminder_offsets_are_refused_and_change_nothing(client_as, users, written):
    Profile.objects.create(user=users["player"], reminder_hours=[24, 2])
    data = {"email": "", "time_zone": "", "language": "", "reminder_hours": written}
    response = client_as("player").post(PREFERENCES, data)
    assert response.status_code == 422
    assert "reminder_hours" in response.context["form"].errors
    assert Profile.objects.get(user=users["player"]).reminder_hours == [24, 2]


def test_the_preferences_link_each_campaigns_mail_settings(campaign, client_as):
    page = client_as("player").get(PREFERENCES).content.decode()
    assert settings_url(campaign) in page


def test_a_post_without_the_reminder_field_keeps_the_offsets(client_as, users):
    Profile.objects.create(user=users["player"], reminder_hours=[8, 1])
    data = {"email": "", "time_zone": "", "language": ""}
    assert client_as("player").post(PREFERENCES, data).status_code == 302
    assert Profile.objects.get(user=users["player"]).reminder_hours == [8, 1]
