"""The devices a user gets notices on, from the preferences page: a browser's subscription
is kept once it is one Courier can push to; each device is tried with a test notice or
removed by its owner only; without the site's VAPID keys, the page says no notice is sent."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign.models import PushSubscription
from campaign.notify import push
from tests.push_receiver import Device, subscription_of, vapid_keys

pytestmark = pytest.mark.django_db

CHROME_ON_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
PREFERENCES = reverse("campaign:preferences")


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_keys()
    settings.PUSH_SERVICES = ["push.example.org"]
    return settings.VAPID_PUBLIC_KEY


def a_subscription(name: str = "a") -> dict[str, str]:
    return subscription_of(Device(), f"https://push.example.org/send/{name}")


def device_of(user, name: str = "a") -> PushSubscription:
    return PushSubscription.objects.create(user=user, device=name, **a_subscription(name))


def test_the_preferences_offer_notices_with_the_sites_public_key(client_as, push_on):
    page = client_as("player").get(PREFERENCES).content.decode()
    assert f'data-vapid-key="{push_on}"' in page
    assert "Show notices on this device" in page
    assert "courier/push" in page  # the script that subscribes, on this page only


def test_without_vapid_keys_the_preferences_say_no_notice_is_sent(client_as, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    page = client_as("player").get(PREFERENCES).content.decode()
    assert "has not set up Web Push" in page and "push-subscribe" not in page


def test_a_browser_subscribes_and_is_named_by_its_user_agent(client_as, users, push_on):
    client = client_as("player")
    response = client.post(
        reverse("campaign:push_subscribe"), a_subscription(), HTTP_USER_AGENT=CHROME_ON_ANDROID
    )
    assert response.status_code == 302 and response.url == f"{PREFERENCES}#devices"
    (device,) = PushSubscription.objects.all()
    assert (device.user, device.device) == (users["player"], "Chrome · Android")
    page = client.get(PREFERENCES).content.decode()
    assert "Notices are on for this device." in page and "Chrome · Android" in page


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "https://192.168.1.5/push"},
        {"endpoint": "javascript:alert(1)"},
        {"p256dh": "x" * 87},
        {"auth": "short"},
        {"endpoint": ""},
    ],
)
def test_a_subscription_courier_cannot_use_is_refused_and_nothing_is_kept(
    client_as, push_on, change
):
    client = client_as("player")
    response = client.post(reverse("campaign:push_subscribe"), {**a_subscription(), **change})
    assert response.status_code == 302
    assert not PushSubscription.objects.exists()
    assert "Notices are on" not in client.get(PREFERENCES).content.decode()


def test_without_vapid_keys_a_subscription_is_refused(client_as, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client = client_as("player")
    client.post(reverse("campaign:push_subscribe"), a_subscription())
    assert not PushSubscription.objects.exists()
    assert "This site sends no notices." in client.get(PREFERENCES).content.decode()


def test_a_test_notice_is_queued_for_the_owners_device_only(
    client_as, users, push_on, django_capture_on_commit_callbacks
):
    mine, theirs = device_of(users["player"], "mine"), device_of(users["other_player"], "theirs")
    client = client_as("player")
    assert client.post(reverse("campaign:push_test", args=[theirs.pk])).status_code == 404
    assert not DBTaskResult.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("campaign:push_test", args=[mine.pk]))
    assert response.status_code == 302
    (task,) = DBTaskResult.objects.all()
    assert task.task_path == "campaign.notify.push.deliver_push"
    assert task.args_kwargs["args"][0] == mine.pk
    for _ in range(push.TESTS_LIMIT):  # a few more, then he is asked to wait
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("campaign:push_test", args=[mine.pk]), follow=True)
    assert "wait a few minutes" in response.content.decode()
    assert DBTaskResult.objects.count() == push.TESTS_LIMIT


def test_without_vapid_keys_a_test_notice_is_refused(client_as, users, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    mine = device_of(users["player"], "mine")
    response = client_as("player").post(reverse("campaign:push_test", args=[mine.pk]), follow=True)
    assert "This site sends no notices." in response.content.decode()
    assert not DBTaskResult.objects.exists()


def test_the_browser_that_logs_out_gets_no_more_notices(client_as, users, push_on):
    elsewhere = device_of(users["player"], "elsewhere")
    client = client_as("player")
    client.post(reverse("campaign:push_subscribe"), a_subscription("here"))
    here = PushSubscription.objects.exclude(pk=elsewhere.pk).get()
    client.post(reverse("logout"))
    assert list(PushSubscription.objects.all()) == [elsewhere]
    assert here.user == users["player"]


def test_a_device_is_removed_by_its_owner_only(client_as, users, push_on):
    mine, theirs = device_of(users["player"], "mine"), device_of(users["other_player"], "theirs")
    client = client_as("player")
    assert client.post(reverse("campaign:push_remove", args=[theirs.pk])).status_code == 404
    assert client.post(reverse("campaign:push_remove", args=[mine.pk])).status_code == 302
    assert list(PushSubscription.objects.all()) == [theirs]


@pytest.mark.parametrize("name", ["push_subscribe", "push_test", "push_remove"])
def test_the_device_routes_take_posts_of_signed_in_users_only(client, client_as, users, name):
    device = device_of(users["player"])
    args = [] if name == "push_subscribe" else [device.pk]
    url = reverse(f"campaign:{name}", args=args)
    assert client_as("player").get(url).status_code == 405
    response = client.post(url, a_subscription("b"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert PushSubscription.objects.count() == 1
