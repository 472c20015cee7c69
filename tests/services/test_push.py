"""Web Push, from the event to a device's screen: the worker encrypts each notice for the
device and signs it with the site's VAPID key; a push service on this machine receives
the request and the device reads it with its own keys (tests/push_receiver.py, RFC 8291
written out independently). A phase that awaits a player's orders, a reminder before its
deadline and private press addressed to him are pushed, each campaign's choices kept; a
device the push service no longer knows (404, 410) is forgotten; a busy one is tried
again later."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from campaign.models import MailChoice, MailKind, Profile, PushSubscription
from campaign.notify import push
from campaign.notify.push_forms import PushSubscriptionForm
from campaign.play import services
from campaign.press import press
from rules.pax_baltica.models import Block
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users
from tests.push_receiver import Device, PushService
from tests.services.test_eia_phase_services import CyclingDice
from tests.services.test_notifications import resolve, revolt_step_open_48_hours, with_mail
from tests.services.test_scheduling import START, give_orders, run_worker, tick

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def vapid(settings):
    """The site's VAPID keys, as `manage.py vapid_keys` makes them; push services on this
    machine are reachable, as in a private network."""
    lines = dict(line.split("=", 1) for line in _command_output().splitlines())
    settings.VAPID_PRIVATE_KEY = lines["COURIER_VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = lines["COURIER_VAPID_PUBLIC_KEY"]
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.PUSH_SERVICES = ["127.0.0.1", "push.example.org"]
    return settings.VAPID_PUBLIC_KEY


def _command_output() -> str:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    return out.getvalue()


@pytest.fixture
def clock(time_machine):
    """The frozen clock, at START; clock(hours=…) moves it on from START."""
    time_machine.move_to(START, tick=False)
    return lambda **delta: time_machine.move_to(START + timedelta(**delta), tick=False)


@pytest.fixture
def eia(clock):
    campaign = make_eia_campaign()
    return campaign, with_mail(seat_users(campaign))


@pytest.fixture
def service():
    with PushService() as running:
        yield running


NOTICE = {"title": "t", "body": "b", "url": "http://127.0.0.1:8000/", "tag": "x"}


def players_device(eia, service: PushService) -> PushSubscription:
    """The player's one device, subscribed to ``service``."""
    campaign, users = eia
    subscribe(users["player"], service, {}, "player")
    return PushSubscription.objects.get()


def subscribe(user, service: PushService, devices: dict[str, Device], name: str) -> None:
    """``user``'s browser subscribes, through the form its page posts."""
    device = devices.setdefault(name, Device())
    form = PushSubscriptionForm({"endpoint": service.endpoint(name), **device.keys()})
    assert form.is_valid(), form.errors
    push.subscribe(user, device=name, **form.cleaned_data)


def test_a_phase_that_awaits_orders_is_pushed_to_the_players_devices(
    eia, service, vapid, django_capture_on_commit_callbacks
):
    campaign, users = eia
    devices: dict[str, Device] = {}
    for role in ("player", "other_player", "gm", "observer", "outsider"):
        subscribe(users[role], service, devices, role)
    subscribe(users["player"], service, devices, "player-laptop")
    Profile.objects.create(user=users["other_player"], language="ru")
    revolt_step_open_48_hours(campaign, users)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    outcomes = run_worker(django_capture_on_commit_callbacks)
    assert [v for name, v in outcomes if name == "deliver_push"] == ["sent"] * 3

    read = service.read(devices, vapid)
    assert sorted(read) == ["other_player", "player", "player-laptop"]  # who owes orders
    (notice,) = read["player"]
    assert notice["title"] == f"[{campaign.name}] Your orders are awaited"
    assert notice["body"].startswith("January 1805: Political phase · revolt step is open.")
    assert "The deadline is" in notice["body"]
    assert notice["url"] == f"http://127.0.0.1:8000/campaigns/{campaign.pk}/"
    assert notice["tag"] == f"campaign-{campaign.pk}"
    assert read["player-laptop"] == read["player"]
    (russian,) = read["other_player"]
    assert "1805" in russian["body"] and "is open" not in russian["body"]
    assert {push.headers["Urgency"] for push in service.received} == {"high"}
    assert PushSubscription.objects.filter(last_sent_at__isnull=False).count() == 3


def test_a_campaign_whose_your_turn_mail_is_off_pushes_nothing(
    eia, service, django_capture_on_commit_callbacks
):
    campaign, users = eia
    devices: dict[str, Device] = {}
    subscribe(users["player"], service, devices, "player")
    MailChoice.objects.create(user=users["player"], campaign=campaign, your_turn=False)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    assert service.received == []


def test_reminders_are_pushed_once_even_to_a_player_without_a_mail_address(
    eia, clock, service, vapid, django_capture_on_commit_callbacks
):
    campaign, users = eia
    users["player"].email = ""
    users["player"].save(update_fields=["email"])
    devices: dict[str, Device] = {}
    subscribe(users["player"], service, devices, "player")
    revolt_step_open_48_hours(campaign, users)
    resolve(campaign, users, django_capture_on_commit_callbacks)  # France owes orders
    for hours in (25, 25.5, 46.5):  # the second tick finds the 24-hour reminder gone
        clock(hours=hours)
        with django_capture_on_commit_callbacks(execute=True):
            tick()
        run_worker(django_capture_on_commit_callbacks)
    notices = service.read(devices, vapid)["player"][1:]  # after the phase's opening
    assert [n["title"].rsplit(": ", 1)[1] for n in notices] == ["23 hours left", "1 hour left"]
    assert all("your orders are not marked ready" in n["body"] for n in notices)


def test_private_press_is_pushed_to_those_it_is_addressed_to_and_public_press_to_none(
    service, vapid, django_capture_on_commit_callbacks
):
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    devices: dict[str, Device] = {}
    for role in ("player", "other_player", "gm", "observer"):
        subscribe(users[role], service, devices, role)
    seats = {role: campaign.seats.get(user=users[role]) for role in ("player", "other_player")}
    powers = press.campaign_powers(campaign)
    secret = "Meet me at Ulm; tell no one."
    france, britain = seats["player"], seats["other_player"]
    third = next(k for k in powers if k not in (france.power.key, britain.power.key))
    private = press.PRIVATE_CHOICE
    with django_capture_on_commit_callbacks(execute=True):
        press.post_message(seat=france, to=private, chosen=[britain.power.key], text=secret)
        two = [britain.power.key, third]
        press.post_message(seat=france, to=private, chosen=two, text="A word to two powers.")
        press.post_message(seat=france, to=press.PUBLIC, text="To all Europe.")
        press.post_message(seat=britain, to=press.GM_CHOICE, text="A question for the GM.")
    run_worker(django_capture_on_commit_callbacks)
    read = service.read(devices, vapid)
    assert sorted(read) == ["gm", "other_player"]  # not the author, the observer, the public
    bodies = {role: [n["body"] for n in notices] for role, notices in read.items()}
    assert bodies == {
        "other_player": [secret, "A word to two powers."],
        "gm": ["A question for the GM."],
    }
    assert read["other_player"][0]["title"].startswith(f"[{campaign.name}] France")
    assert "/press/" in read["other_player"][0]["url"]


def test_a_pax_baltica_player_is_never_pushed_the_other_sides_private_press(
    service, vapid, django_capture_on_commit_callbacks
):
    campaign = make_pb_campaign()
    users = seat_users(campaign, player="sweden", other="russia")
    devices: dict[str, Device] = {}
    subscribe(users["other_player"], service, devices, "russia")
    powers = press.campaign_powers(campaign)
    sweden = campaign.seats.get(user=users["player"])
    third = next(k for k in powers if k not in ("sweden", "russia"))
    with django_capture_on_commit_callbacks(execute=True):
        private = press.PRIVATE_CHOICE
        press.post_message(seat=sweden, to=private, chosen=[third], text="Sweden's secret plan")
    run_worker(django_capture_on_commit_callbacks)
    assert service.received == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_no_longer_knows_is_forgotten(status, eia, service):
    subscription = players_device(eia, service)
    service.answers["/push/player"] = status
    assert push.deliver_push.call(subscription.pk, NOTICE) == "gone"
    assert not PushSubscription.objects.exists()
    assert push.deliver_push.call(subscription.pk, NOTICE) == "removed"


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_push_service_is_tried_again_later(status, eia, service):
    subscription = players_device(eia, service)
    service.answers["/push/player"] = status
    assert push.deliver_push.call(subscription.pk, NOTICE) == "retrying"
    assert DBTaskResult.objects.filter(status="READY", task_path__endswith="deliver_push").exists()
    assert PushSubscription.objects.exists()


def test_a_push_service_on_a_private_address_is_refused_unless_allowed(settings, eia, service):
    subscription = players_device(eia, service)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    assert push.deliver_push.call(subscription.pk, NOTICE) == "refused"
    assert service.received == []


def test_without_vapid_keys_nothing_is_pushed(
    settings, eia, service, django_capture_on_commit_callbacks
):
    campaign, users = eia
    devices: dict[str, Device] = {}
    subscribe(users["player"], service, devices, "player")
    settings.VAPID_PRIVATE_KEY = ""
    assert push.notify(campaign, MailKind.YOUR_TURN, [users["player"]], lambda: None) == 0
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    assert service.received == []


def test_a_browser_that_subscribes_again_keeps_one_subscription_under_its_new_user(eia, service):
    campaign, users = eia
    devices: dict[str, Device] = {}
    subscribe(users["player"], service, devices, "shared")
    subscribe(users["other_player"], service, devices, "shared")
    (subscription,) = PushSubscription.objects.all()
    assert subscription.user == users["other_player"]


@pytest.mark.parametrize(
    "agent, label",
    [
        (
            "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
            "Firefox · Android",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "Safari · iOS",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge · Windows",
        ),
        ("curl/8.5", ""),
    ],
)
def test_a_device_is_named_by_its_browser_and_system(agent, label):
    assert push.device_label(agent) == label


@pytest.mark.parametrize(
    "change, field",
    [
        ({"endpoint": "ftp://push.example.org/x"}, "endpoint"),
        ({"endpoint": "https://10.0.0.1/x"}, "endpoint"),
        ({"endpoint": "https://localhost/x"}, "endpoint"),
        ({"endpoint": "https://user:secret@push.example.org/x"}, "endpoint"),
        ({"endpoint": "https://push.example.org.evil.example/x"}, "endpoint"),
        ({"endpoint": "https://example.com/x"}, "endpoint"),  # not a push service
        ({"p256dh": "not base64 !"}, "p256dh"),
        ({"p256dh": "BA"}, "p256dh"),
        ({"p256dh": "B" + "A" * 86}, "p256dh"),  # 65 bytes, not a point of the curve
        ({"auth": "AAAA"}, "auth"),
        ({"auth": ""}, "auth"),
    ],
)
def test_a_subscription_courier_cannot_use_is_refused(settings, change, field):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    data = {"endpoint": "https://push.example.org/send/abc", **Device().keys(), **change}
    form = PushSubscriptionForm(data)
    assert not form.is_valid()
    assert list(form.errors) == [field]


def test_a_pax_baltica_side_is_never_pushed_the_other_sides_blocks(
    clock, service, vapid, monkeypatch, django_capture_on_commit_callbacks
):
    """A year's recruitment resolved (a draw, a step, a new block placed): the notices the
    next phase pushes to each side name no block of the other."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((1, 6, 1, 2)))
    campaign = make_pb_campaign(territories=14)
    users = with_mail(seat_users(campaign, "sweden", "russia"))
    devices: dict[str, Device] = {}
    for role in ("player", "other_player"):
        subscribe(users[role], service, devices, role)
    ids = dict(Block.objects.filter(campaign=campaign).values_list("name", "pk"))
    empty = {"reinforce": [], "draws": 0, "steps_each": 0, "places": [], "fleet_places": []}
    give_orders(campaign, "saxony", payload=empty | {"draws": 1, "places": ["lausitz"]})
    step = [{"block": ids["Wachtmeister"], "steps": 1}]
    give_orders(campaign, "sweden", payload=empty | {"reinforce": step})
    give_orders(campaign, "russia", payload=empty)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    read = service.read(devices, vapid)
    assert sorted(read) == ["other_player", "player"]
    blocks = Block.objects.filter(campaign=campaign)
    swedish = set(blocks.filter(power__key="sweden").values_list("name", flat=True))
    coalition = set(blocks.exclude(power__key="sweden").values_list("name", flat=True))
    for role, theirs in (("player", coalition), ("other_player", swedish)):
        text = " ".join(f"{n['title']} {n['body']}" for n in read[role])
        assert not [name for name in theirs if name in text], text


def test_a_user_keeps_his_ten_newest_devices(eia, service):
    campaign, users = eia
    devices: dict[str, Device] = {}
    for n in range(push.DEVICES_MOST + 2):
        subscribe(users["player"], service, devices, f"d{n}")
    kept = PushSubscription.objects.filter(user=users["player"]).order_by("pk")
    assert [d.device for d in kept] == [f"d{n}" for n in range(2, push.DEVICES_MOST + 2)]


def test_without_vapid_keys_a_queued_push_is_not_sent(settings, eia, service):
    subscription = players_device(eia, service)
    settings.VAPID_PRIVATE_KEY = ""  # the keys were taken away after the push was queued
    assert push.deliver_push.call(subscription.pk, NOTICE) == "refused"
    assert service.received == [] and PushSubscription.objects.exists()


def test_a_reminder_has_a_tag_of_its_own_beside_the_phases_opening(
    eia, clock, service, vapid, django_capture_on_commit_callbacks
):
    campaign, users = eia
    devices: dict[str, Device] = {}
    subscribe(users["player"], service, devices, "player")
    revolt_step_open_48_hours(campaign, users)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    clock(hours=25)
    with django_capture_on_commit_callbacks(execute=True):
        tick()
    run_worker(django_capture_on_commit_callbacks)
    tags = [notice["tag"] for notice in service.read(devices, vapid)["player"]]
    assert tags == [f"campaign-{campaign.pk}", f"reminder-{campaign.pk}"]
