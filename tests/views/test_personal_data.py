"""Personal data (campaign/people/personal_data.py): a user downloads everything Courier
holds about him, and nothing of anyone else's; he deletes his account with his password
(a wrong one changes nothing), his sessions end, and every campaign's pages, press and
history still render, his seats shown as a former player's and his press kept or
erased; a GM of a campaign that has not ended is refused until he hands it over or ends
it; the privacy page says what is kept."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.api import tokens
from campaign.errors import Conflict
from campaign.models import (
    AccessToken,
    CalendarFeed,
    Campaign,
    Event,
    MailChoice,
    Message,
    Note,
    Order,
    Profile,
    PushSubscription,
    Seat,
    SeatRequest,
    Tenure,
)
from campaign.notify import delivery, outgoing
from campaign.people import personal_data
from campaign.play import tenures
from campaign.play.services import resolve_open_phase
from campaign.press import notes, press
from courier import throttling
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.push_receiver import Device, subscription_of

pytestmark = pytest.mark.django_db
User = get_user_model()
DOWNLOAD = reverse("campaign:personal_data")
DELETE = reverse("campaign:delete_account")
PRIVACY = reverse("campaign:privacy")
PREFERENCES = reverse("campaign:preferences")
MINE, THEIRS = "MY-OWN-WORDS-51c2", "THEIR-WORDS-9e07"


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    """The press's rate limit counts in the cache."""
    cache.clear()
    yield
    cache.clear()


def seat_of(campaign, user) -> Seat:
    return Seat.objects.select_related("campaign", "power").get(campaign=campaign, user=user)


def played(campaign, users) -> None:
    """What the player and the other player did: took their seats (their tenures), wrote
    in public and in private, gave orders, kept notes; the GM resolved the first phase."""
    for role in ("player", "other_player"):
        seat = seat_of(campaign, users[role])
        tenures.begin(campaign, seat.power, users[role])
        words = MINE if role == "player" else THEIRS
        press.post_message(seat=seat, to="public", text=f"{words} in public")
        press.post_message(
            seat=seat,
            to=press.PRIVATE_CHOICE,
            chosen=["france", "great_britain"],
            text=f"{words} in private",
        )
        Order.objects.create(
            campaign=campaign,
            phase_id=campaign.phase_id,
            power=seat.power,
            payload={"note": f"{words} order"},
            submitted_by=users[role],
        )
        notes.save_note(
            campaign_id=campaign.pk, user=users[role], phase_id=None, text=f"{words} note"
        )
    resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
    )
    campaign.refresh_from_db()


def download(client) -> dict:
    response = client.get(DOWNLOAD)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    return json.loads(response.content)


def delete(client, password: str = PASSWORD, **data):
    return client.post(DELETE, {"password": password, **data})


# -- who may ---------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in_and_reads_the_privacy_page(client):
    for response in (client.get(DOWNLOAD), client.post(DELETE, {"password": PASSWORD})):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    page = client.get(PRIVACY)
    assert page.status_code == 200
    html = unescape(page.content.decode())
    assert "Kept, and why" in html and "verifiable" in html
    assert PRIVACY in client.get(reverse("login")).content.decode()  # the footer's link


def test_the_privacy_page_names_the_error_tracker_only_where_one_is_set(client, settings):
    settings.SENTRY_DSN = ""
    assert "Sentry" not in client.get(PRIVACY).content.decode()
    settings.SENTRY_DSN = "https://key@sentry.example/1"
    assert "error tracker (Sentry)" in client.get(PRIVACY).content.decode()


def test_deleting_is_a_post_and_downloading_a_get(client_as, users):
    client = client_as("player")
    assert client.get(DELETE).status_code == 405
    assert client.post(DOWNLOAD).status_code == 405
    assert client.post(PRIVACY).status_code == 405
    assert User.objects.filter(pk=users["player"].pk).exists()


def test_the_preferences_page_offers_both_and_links_the_privacy_page(client_as):
    html = unescape(client_as("player").get(PREFERENCES).content.decode())
    section = html[html.index('id="your-data"') :]
    assert DOWNLOAD in section and DELETE in section and PRIVACY in section
    assert 'name="password"' in section and 'name="erase_press"' in section
    assert "csrfmiddlewaretoken" in section


# -- the download ----------------------------------------------------------------------


def test_the_download_holds_his_data_and_nothing_of_anyone_elses(campaign, users, client_as):
    played(campaign, users)
    player = users["player"]
    Profile.objects.update_or_create(user=player, defaults={"time_zone": "Europe/Paris"})
    _, token = tokens.make_token(user=player, name="my bot")
    device = PushSubscription.objects.create(
        user=player,
        device="my phone",
        **subscription_of(Device(), "https://push.example.org/send/abc"),
    )
    CalendarFeed.objects.create(user=player)
    spain = campaign.powers.get(key="spain")
    SeatRequest.objects.create(campaign=campaign, power=spain, user=player)
    MailChoice.objects.create(user=player, campaign=campaign, press="each")
    tokens.make_token(user=users["other_player"], name="their bot")

    data = download(client_as("player"))
    raw = json.dumps(data, ensure_ascii=False)
    assert data["format"] == "courier-personal-data"
    assert data["account"]["username"] == player.username
    assert data["preferences"]["time_zone"] == "Europe/Paris"
    assert [(s["campaign"]["id"], s["role"], s["power"]) for s in data["seats"]] == [
        (campaign.pk, "player", "france")
    ]
    assert [t["power"] for t in data["powers_played"]] == ["france"]
    assert [o["payload"] for o in data["orders"]] == [{"note": f"{MINE} order"}]
    assert {m["text"] for m in data["press"]} == {f"{MINE} in public", f"{MINE} in private"}
    assert [n["text"] for n in data["notes"]] == [f"{MINE} note"]
    assert [t["name"] for t in data["api_tokens"]] == ["my bot"]
    assert data["devices"] == [
        {
            "device": "my phone",
            "push_service": "push.example.org",
            "subscribed_at": data["devices"][0]["subscribed_at"],
            "last_sent_at": None,
        }
    ]
    assert len(data["calendar_feed"]) == 1
    assert [(r["power"], r["status"]) for r in data["seat_requests"]] == [("spain", "pending")]
    assert [c["press"] for c in data["mail"]["by_campaign"]] == ["each"]
    # nothing of anyone else's, and no secret of his
    assert THEIRS not in raw
    for role in ("gm", "other_player", "observer", "outsider"):
        assert users[role].username not in raw
    assert "their bot" not in raw
    secrets = [token, token[:12], device.p256dh, device.auth, device.endpoint]
    secrets += [CalendarFeed.objects.get(user=player).secret, player.password]
    secrets += list(Seat.objects.filter(campaign=campaign).values_list("invite_token", flat=True))
    assert not [s for s in secrets if s in raw]


def test_another_user_downloads_only_his_own(campaign, users, client_as):
    played(campaign, users)
    data = download(client_as("other_player"))
    raw = json.dumps(data, ensure_ascii=False)
    assert data["account"]["username"] == users["other_player"].username
    assert THEIRS in raw and MINE not in raw
    outsider = download(client_as("outsider"))
    assert outsider["seats"] == outsider["orders"] == outsider["press"] == []


def test_the_log_lines_he_acted_are_as_he_reads_them(campaign, users, client_as):
    seat = seat_of(campaign, users["player"])
    Event.objects.create(
        campaign=campaign,
        turn=1,
        kind=Event.Kind.GM,
        text="France sees the hidden thing",
        audience=["great_britain"],
        redacted="Something happened",
        actor=users["player"],
    )
    Event.objects.create(
        campaign=campaign, turn=1, kind=Event.Kind.SEAT, text="France saves", actor=seat.user
    )
    texts = [line["text"] for line in download(client_as("player"))["log_lines"]]
    assert texts == ["Something happened", "France saves"]


def test_the_download_costs_the_same_queries_however_many_campaigns(
    campaign, users, client_as, django_assert_max_num_queries
):
    player = users["player"]
    played(campaign, users)
    client = client_as("player")
    with CaptureQueriesContext(connection) as one:
        download(client)
    for _ in range(3):  # three more campaigns where he plays France, writes and orders
        more = make_eia_campaign()
        more_users = seat_users(more)
        Seat.objects.filter(campaign=more, user=more_users["player"]).update(user=player)
        seat = seat_of(more, player)
        tenures.begin(more, seat.power, player)
        press.post_message(seat=seat, to="public", text=f"{MINE} again")
        Order.objects.create(
            campaign=more, phase_id=more.phase_id, power=seat.power, submitted_by=player
        )
        notes.save_note(campaign_id=more.pk, user=player, phase_id=None, text="again")
    with django_assert_max_num_queries(min(len(one), 30)):  # the export itself: 27
        data = download(client)
    assert len(data["seats"]) == 4 and len(data["press"]) == 5 and len(data["orders"]) == 4


# -- the deletion ----------------------------------------------------------------------


def test_a_wrong_password_deletes_nothing(campaign, users, client_as):
    played(campaign, users)
    client = client_as("player")
    for password in ("", "not-my-password", PASSWORD.upper(), "x" * 5000):
        response = delete(client, password, erase_press="on")
        assert response.status_code == 422
        html = unescape(response.content.decode())
        assert "Your account was not deleted." in html
    assert "This is not your password" in html
    player = User.objects.get(pk=users["player"].pk)
    assert seat_of(campaign, player).power.key == "france"
    assert Message.objects.filter(author=player, text__startswith=MINE).count() == 2
    assert Note.objects.filter(user=player).exists()
    assert client.get(PREFERENCES).status_code == 200  # still logged in


def test_after_a_few_wrong_passwords_even_the_right_one_is_not_heard(users, client_as):
    client = client_as("player")
    for _ in range(throttling.PASSWORD_CHECK_LIMIT):
        assert delete(client, "guess").status_code == 422
    response = delete(client, PASSWORD)
    assert response.status_code == 422
    assert "Too many wrong passwords" in unescape(response.content.decode())
    assert User.objects.filter(pk=users["player"].pk).exists()
    assert delete(client_as("other_player"), PASSWORD).status_code == 302  # his own count
    cache.clear()  # the window has passed
    assert delete(client, PASSWORD).status_code == 302


def test_another_users_password_or_name_deletes_nobody_else(campaign, users, client_as):
    other = users["other_player"]
    other.set_password("their-own-password-77")
    other.save()
    response = delete(client_as("player"), "their-own-password-77", user=other.pk)
    assert response.status_code == 422
    response = delete(client_as("player"), PASSWORD, user=other.pk, username=other.username)
    assert response.status_code == 302
    assert not User.objects.filter(pk=users["player"].pk).exists()
    assert User.objects.filter(pk=other.pk).exists()
    assert seat_of(campaign, other).power.key == "great_britain"


def test_after_deletion_the_history_stays_under_a_former_player(campaign, users, client_as):
    played(campaign, users)
    player, seat = users["player"], seat_of(campaign, users["player"])
    resolved = campaign.phases.get(status="resolved")
    lines_before = Event.objects.filter(campaign=campaign).count()
    gm = client_as("gm")  # logged in before the deletion
    response = delete(client_as("player"))
    assert response.status_code == 302 and response["Location"] == PRIVACY
    assert not User.objects.filter(pk=player.pk).exists()
    seat.refresh_from_db()
    assert (seat.user_id, seat.power.key, seat.role) == (None, "france", "player")
    order = Order.objects.get(campaign=campaign, power=seat.power)
    assert order.submitted_by_id is None and order.payload == {"note": f"{MINE} order"}
    kept = Message.objects.filter(campaign=campaign, text__startswith=MINE)
    assert kept.count() == 2 and not kept.exclude(author=None).exists()
    assert Event.objects.filter(campaign=campaign).count() == lines_before + 1
    said = Event.objects.filter(campaign=campaign).first()
    assert said.text.startswith("The player of France has deleted their account")
    tenure = Tenure.objects.get(campaign=campaign, power=seat.power)
    assert (tenure.user_id, tenure.user_name, tenure.ended) == (None, "", "left")

    detail = unescape(gm.get(reverse("campaign:detail", args=[campaign.pk])).content.decode())
    assert "former player" in detail
    page = gm.get(reverse("campaign:press", args=[campaign.pk]))
    assert page.status_code == 200 and f"{MINE} in public" in page.content.decode()
    history = gm.get(reverse("campaign:history", args=[campaign.pk, resolved.pk]))
    assert history.status_code == 200
    html = unescape(history.content.decode())
    assert "former player" in html and f">{player.username}<" not in html
    other = client_as("other_player")
    for url in (
        reverse("campaign:detail", args=[campaign.pk]),
        reverse("campaign:press_channel", args=[campaign.pk, "france+great_britain"]),
        reverse("campaign:gm", args=[campaign.pk]),
    ):
        assert other.get(url).status_code in (200, 403)
    assert gm.get(reverse("campaign:gm", args=[campaign.pk])).status_code == 200


def test_erasing_the_press_keeps_the_rows_with_a_marker(campaign, users, client_as):
    played(campaign, users)
    count = Message.objects.filter(campaign=campaign).count()
    assert delete(client_as("player"), erase_press="on").status_code == 302
    assert Message.objects.filter(campaign=campaign).count() == count
    assert not Message.objects.filter(text__contains=MINE).exists()
    erased = Message.objects.filter(campaign=campaign, text=press.ERASED)
    assert erased.count() == 2 and set(erased.values_list("author", flat=True)) == {None}
    assert Message.objects.filter(text__startswith=THEIRS).count() == 2
    other = client_as("other_player")
    channel = reverse("campaign:press_channel", args=[campaign.pk, "france+great_britain"])
    html = unescape(other.get(channel).content.decode())
    assert "(erased at the author's request)" in html and f"{THEIRS} in private" in html


def test_everything_of_his_goes_but_the_campaigns_history(campaign, users, client_as):
    played(campaign, users)
    player = users["player"]
    tokens.make_token(user=player, name="my bot")
    PushSubscription.objects.create(
        user=player, **subscription_of(Device(), "https://push.example.org/send/abc")
    )
    CalendarFeed.objects.create(user=player)
    spain = campaign.powers.get(key="spain")
    SeatRequest.objects.create(campaign=campaign, power=spain, user=player)
    MailChoice.objects.create(user=player, campaign=campaign, press="each")
    more = make_eia_campaign()
    seat_users(more)
    Seat.objects.filter(campaign=more, role="observer").update(user=player)  # a watcher too
    assert delete(client_as("player")).status_code == 302
    for model in (AccessToken, PushSubscription, CalendarFeed, SeatRequest, MailChoice, Note):
        assert not model.objects.filter(user_id=player.pk).exists(), model.__name__
    assert not Profile.objects.filter(user_id=player.pk).exists()
    assert not Seat.objects.filter(campaign=more, role="observer").exists()
    observer_line = Event.objects.filter(campaign=more).first()
    assert observer_line.text == "An observer has deleted their account."
    assert Order.objects.filter(campaign=campaign).count() == 2


def test_every_session_of_his_ends(campaign, users):
    player = users["player"]
    here, there = Client(), Client()
    here.force_login(player)
    there.force_login(player)
    other = Client()
    other.force_login(users["other_player"])
    assert there.get(PREFERENCES).status_code == 200
    assert delete(here).status_code == 302
    for client in (here, there):
        response = client.get(PREFERENCES)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    owners = [s.get_decoded().get("_auth_user_id") for s in Session.objects.all()]
    assert str(player.pk) not in owners
    assert other.get(PREFERENCES).status_code == 200
    again = Client()
    login = {"username": player.username, "password": PASSWORD}
    assert again.post(reverse("login"), login).status_code == 200  # the form, refused
    assert again.get(PREFERENCES).status_code == 302


def test_a_gm_of_a_campaign_not_ended_is_refused_naming_it(campaign, users, client_as):
    gm = users["gm"]
    client = client_as("gm")
    page = unescape(client.get(PREFERENCES).content.decode())
    assert campaign.name in page[page.index('id="your-data"') :]
    lines = Event.objects.filter(campaign=campaign).count()
    response = delete(client)
    assert response.status_code == 409
    html = unescape(response.content.decode())
    assert f"You are a GM of “{campaign.name}”" in html and "hand it over" in html
    assert User.objects.filter(pk=gm.pk).exists()
    assert seat_of(campaign, gm).is_gm
    assert Event.objects.filter(campaign=campaign).count() == lines
    Campaign.objects.filter(pk=campaign.pk).update(ended_at=timezone.now())  # it ends
    assert delete(client).status_code == 302
    seat = Seat.objects.get(campaign=campaign, role=Seat.Role.GM)
    assert seat.user_id is None
    said = Event.objects.filter(campaign=campaign).first().text
    assert said.startswith("A GM has deleted their account")


def test_the_refusal_names_every_campaign_he_runs(campaign, users):
    more = make_eia_campaign()
    Seat.objects.filter(campaign=more, role="gm").update(user=users["gm"])
    with pytest.raises(Conflict) as refused:
        personal_data.delete_account(user=users["gm"], erase_press=False)
    assert campaign.name in str(refused.value) and "hand each over" in str(refused.value)
    assert Seat.objects.filter(user=users["gm"]).count() == 2


def test_a_player_leaving_a_running_campaign_frees_the_seat(campaign, users, client_as):
    seat = seat_of(campaign, users["player"])
    token = seat.invite_token
    assert delete(client_as("player")).status_code == 302
    seat.refresh_from_db()
    assert seat.user_id is None and seat.invite_token != token
    newcomer = User.objects.create_user("newcomer", password=PASSWORD)
    client = Client()
    client.force_login(newcomer)
    client.post(reverse("campaign:join", args=[seat.invite_token]))
    seat.refresh_from_db()
    assert seat.user_id == newcomer.pk and seat.power.key == "france"


def test_a_mail_still_queued_for_him_is_not_sent(campaign, users, client_as, mailoutbox):
    def letter():
        return outgoing.Letter(subject="Your turn", paragraphs=["Orders are due."])

    for role in ("player", "other_player"):
        users[role].email = f"{role}@example.org"
        users[role].save(update_fields=["email"])
        outgoing.send(users[role], letter, campaign=campaign)
    queued = DBTaskResult.objects.filter(task_path=delivery.deliver_mail.module_path)
    assert queued.count() == 2
    assert delete(client_as("player")).status_code == 302
    outcomes = [delivery.deliver_mail.call(*row.args_kwargs["args"]) for row in queued]
    assert sorted(outcomes) == ["dropped", "sent"]
    assert [m.to for m in mailoutbox] == [["other_player@example.org"]]
