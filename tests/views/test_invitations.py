"""Invitations: the join link names its campaign and power to anyone, and its "Sign up"
and "Log in" lead back to it; the sign-up and login pages name the invitation (never
for a forged or used link); sign-up asks for a mail address; a forged or reused link
is refused clearly and changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import snapshot

pytestmark = pytest.mark.django_db
User = get_user_model()
SIGNUP = reverse("campaign:signup")
LOGIN = reverse("login")
PASSWORD = "ropewalk-Quiberon-1759"
INVITED = (
    "You are invited to play <strong>Spain</strong> in <strong>Test campaign (10 areas)</strong>."
)


@pytest.fixture
def join_url(campaign):
    return reverse("campaign:join", args=[campaign.seats.get(power__key="spain").invite_token])


def sign_up(client, next_url, **fields):
    data = {
        "username": "newcomer",
        "email": "newcomer@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "next": next_url,
        **fields,
    }
    return client.post(SIGNUP, data)


def test_the_join_link_names_the_seat_and_leads_to_sign_up_and_back(campaign, join_url):
    page = Client().get(join_url)
    html = page.content.decode()
    assert page.status_code == 200
    assert INVITED in html
    assert f'href="{SIGNUP}?next={join_url}"' in html
    assert f'href="{LOGIN}?next={join_url}"' in html
    assert "Take this seat" not in html


def test_signing_up_from_the_join_link_comes_back_to_take_the_seat(campaign, join_url):
    client = Client()
    form = client.get(SIGNUP, {"next": join_url})
    assert INVITED in form.content.decode()
    response = sign_up(client, join_url)
    assert response.status_code == 302 and response.url == join_url
    user = User.objects.get(username="newcomer")
    assert user.profile.unconfirmed_email == "newcomer@example.org"  # until its link is followed
    assert "Take this seat" in client.get(join_url).content.decode()
    assert client.post(join_url).status_code == 302
    assert campaign.seats.get(power__key="spain").user == user


def test_logging_in_from_the_join_link_names_the_seat_and_comes_back(campaign, join_url, users):
    users["outsider"].set_password(PASSWORD)
    users["outsider"].save()
    client = Client()
    assert INVITED in client.get(LOGIN, {"next": join_url}).content.decode()
    data = {"username": users["outsider"].username, "password": PASSWORD, "next": join_url}
    response = client.post(LOGIN, data)
    assert response.status_code == 302 and response.url == join_url


def test_an_anonymous_post_to_the_join_link_is_sent_to_log_in(campaign, join_url):
    before = snapshot(campaign)
    response = Client().post(join_url)
    assert response.status_code == 302
    assert response.url == f"{LOGIN}?next={join_url}"
    assert snapshot(campaign) == before


@pytest.mark.parametrize(
    "next_url",
    [
        "/join/forged-token/",
        "/join/a\x00b/",
        "/lobby/",
        "https://evil.example/join/x/",
        "",
    ],
)
def test_login_and_sign_up_name_no_invitation_for_any_other_next(campaign, next_url):
    for url in (LOGIN, SIGNUP):
        page = Client().get(url, {"next": next_url})
        assert page.status_code == 200
        assert page.context["invited"] is None
        assert "You are invited" not in page.content.decode()


def test_login_and_sign_up_name_no_invitation_for_a_used_link(campaign, users):
    used = reverse("campaign:join", args=[campaign.seats.get(power__key="france").invite_token])
    for url in (LOGIN, SIGNUP):
        page = Client().get(url, {"next": used})
        assert page.context["invited"] is None
        assert "France" not in page.content.decode()


def test_a_gm_seats_token_is_no_invitation(campaign):
    gm_link = reverse("campaign:join", args=[campaign.seats.get(role="gm").invite_token])
    assert Client().get(gm_link).status_code == 404
    assert Client().get(LOGIN, {"next": gm_link}).context["invited"] is None


@pytest.mark.parametrize("role", ["anonymous", "outsider"])
def test_a_forged_link_is_refused_clearly(campaign, client_as, role):
    before = snapshot(campaign)
    client = client_as(role)
    page = client.get(reverse("campaign:join", args=["forged-token"]))
    assert page.status_code == 404
    assert "This invitation link is not valid." in page.content.decode()
    if role == "outsider":
        assert client.post(reverse("campaign:join", args=["forged-token"])).status_code == 404
    assert snapshot(campaign) == before


@pytest.mark.parametrize("role", ["anonymous", "outsider"])
def test_a_used_link_says_so_and_names_nothing(campaign, client_as, users, role):
    used = reverse("campaign:join", args=[campaign.seats.get(power__key="france").invite_token])
    before = snapshot(campaign)
    client = client_as(role)
    html = client.get(used).content.decode()
    assert "This seat has already been taken." in html
    assert "France" not in html and campaign.name not in html
    if role == "outsider":
        refused = client.post(used)
        assert refused.status_code == 409
        assert "This seat has already been taken." in refused.content.decode()
    assert snapshot(campaign) == before


def test_the_holder_of_a_used_link_is_sent_to_the_campaign(campaign, client_as, users):
    used = reverse("campaign:join", args=[campaign.seats.get(power__key="france").invite_token])
    assert "You already hold this seat." in client_as("player").get(used).content.decode()


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"email": ""}, "This field is required."),
        ({"email": "not-an-address"}, "Enter a valid email address."),
    ],
)
def test_sign_up_asks_for_a_valid_mail_address(campaign, join_url, fields, error):
    response = sign_up(Client(), join_url, **fields)
    assert response.status_code == 422
    assert error in response.context["form"].errors["email"]
    assert INVITED in response.content.decode()  # the invitation is still named
    assert not User.objects.filter(username="newcomer").exists()


def test_the_preferences_say_what_is_mailed_and_change_the_address(campaign, client_as, users):
    client = client_as("player")
    page = client.get(reverse("campaign:preferences")).content.decode()
    assert "Courier writes to your mail address" in page
    assert "Every mail Courier sends you goes here." in page
    data = {"email": "new@example.org", "time_zone": "", "language": ""}
    response = client.post(reverse("campaign:preferences"), data)
    assert response.status_code == 302
    users["player"].refresh_from_db()
    assert users["player"].profile.unconfirmed_email == "new@example.org"  # waits for its link
    refused = client.post(reverse("campaign:preferences"), {**data, "email": "nope"})
    assert refused.status_code == 422
    users["player"].refresh_from_db()
    assert users["player"].profile.unconfirmed_email == "new@example.org"
