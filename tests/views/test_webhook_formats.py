"""The webhook's chat format on the GM's dashboard: the schedule form saves it, the "Send a
test message" button (campaign/views/webhook.py) enqueues a test message in the saved
format for every role allowed and no other, and no payload in any format carries a
secret: private press, sealed orders, Pax Baltica's hidden blocks."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign.models import Campaign
from campaign.notify.notifications import TESTS_LIMIT
from campaign.press import press
from rules.pax_baltica.models import Block
from tests.factories import make_pb_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
HOOK = "https://chat.example.org/hooks/courier"
FORMATS = ("discord", "slack", "matrix", "json")
SHAPES = {  # what marks a payload as each format's
    "discord": {"username", "embeds", "allowed_mentions"},
    "slack": {"text", "blocks"},
    "matrix": {"text", "html", "username"},
    "json": {"event", "campaign", "turn", "phase", "deadline", "url", "text"},
}


def sent() -> list[tuple[str, dict]]:
    """The webhooks handed to the worker: (url, payload), in order."""
    tasks = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_webhook")
    return [tuple(task.args_kwargs["args"]) for task in tasks.order_by("enqueued_at", "pk")]


def with_hook(campaign, format: str = "json", url: str = HOOK) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(webhook_url=url, webhook_format=format)
    campaign.refresh_from_db()


def button_url(campaign) -> str:
    return reverse("campaign:webhook_test", args=[campaign.pk])


def schedule(client, campaign, **data):
    url = reverse("campaign:schedule", args=[campaign.pk])
    return client.post(url, {"auto_resolve": "on", "webhook_url": HOOK, **data})


# -- the schedule form -------------------------------------------------------------------


@pytest.mark.parametrize("format", FORMATS)
def test_the_schedule_saves_the_format_with_the_url(campaign, client_as, format):
    response = schedule(client_as("gm"), campaign, webhook_format=format)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.webhook_url, campaign.webhook_format) == (HOOK, format)
    page = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert f'<option value="{format}" selected>' in page


def test_a_schedule_posted_without_the_format_keeps_it(campaign, client_as):
    with_hook(campaign, "slack")
    assert schedule(client_as("gm"), campaign).status_code == 302
    campaign.refresh_from_db()
    assert campaign.webhook_format == "slack"


def test_an_unknown_format_is_refused_and_changes_nothing(campaign, client_as):
    before = snapshot(campaign)
    response = schedule(client_as("gm"), campaign, webhook_format="xml")
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert snapshot(campaign) == before


# -- the test button ---------------------------------------------------------------------


EXPECTED = {"anonymous": 302, "outsider": 404, "other_player": 403, "player": 403}
EXPECTED |= {"observer": 403, "gm": 302}


@pytest.mark.parametrize("role", ROLES)
def test_only_the_gm_may_send_a_test_message(campaign, client_as, role):
    with_hook(campaign, "discord")
    before = snapshot(campaign)
    response = client_as(role).post(button_url(campaign))
    assert response.status_code == EXPECTED[role]
    assert snapshot(campaign) == before  # a test message changes nothing of the campaign
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if role != "gm":
        assert sent() == []


def test_the_test_button_takes_no_get(campaign, client_as):
    with_hook(campaign)
    assert client_as("gm").get(button_url(campaign)).status_code == 405
    assert sent() == []


@pytest.mark.parametrize("format", FORMATS)
def test_the_test_message_goes_to_the_saved_url_in_the_saved_format(campaign, client_as, format):
    with_hook(campaign, format)
    client = client_as("gm")
    response = client.post(button_url(campaign))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:gm", args=[campaign.pk]) + "#schedule"
    page = client.get(response["Location"]).content.decode()
    assert "is on its way to the webhook" in page
    ((url, payload),) = sent()
    assert url == HOOK
    assert set(payload) == SHAPES[format]
    assert "A test message from Courier" in json.dumps(payload, ensure_ascii=False)


def test_the_json_test_message_names_the_open_phase(campaign, client_as):
    with_hook(campaign, "json")
    client_as("gm").post(button_url(campaign))
    ((_, payload),) = sent()
    assert payload["event"] == "test"
    assert payload["campaign"] == campaign.name
    assert payload["phase"] == str(campaign.rules.phase(campaign.phase.key).name)
    assert payload["deadline"] is None and payload["turn"]
    assert payload["url"].endswith(reverse("campaign:detail", args=[campaign.pk]))


def test_with_htmx_the_schedule_section_says_it_is_on_its_way(campaign, client_as):
    with_hook(campaign, "matrix")
    response = client_as("gm").post(button_url(campaign), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="schedule"' in html
    assert "in the Matrix (a hookshot webhook) format is on its way" in html
    assert len(sent()) == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_without_a_saved_url_nothing_is_sent_and_the_gm_is_told(campaign, client_as, htmx):
    before = snapshot(campaign)
    response = client_as("gm").post(button_url(campaign), **(HTMX if htmx else {}))
    assert response.status_code == 422
    assert "No webhook URL is saved" in response.content.decode()
    assert sent() == []
    assert snapshot(campaign) == before


def test_a_few_test_messages_go_and_then_the_gm_is_asked_to_wait(campaign, client_as):
    with_hook(campaign)
    gm = client_as("gm")
    statuses = [gm.post(button_url(campaign)).status_code for _ in range(TESTS_LIMIT)]
    assert set(statuses) == {302} and len(sent()) == TESTS_LIMIT
    refused = gm.post(button_url(campaign))
    assert refused.status_code == 422 and "wait a few minutes" in refused.content.decode()
    assert len(sent()) == TESTS_LIMIT


def test_a_stale_dashboard_sends_nothing(campaign, client_as):
    with_hook(campaign)
    stale = {"state_version": campaign.state_version - 1}
    assert client_as("gm").post(button_url(campaign), stale).status_code == 409
    assert sent() == []


def test_the_dashboard_shows_the_button_in_the_schedule_section(campaign, client_as):
    page = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    section = page[page.index('id="schedule"') :]
    section = section[: section.index("</section>")]
    assert f'action="{button_url(campaign)}"' in section
    assert "Send a test message" in section
    assert 'name="webhook_format"' in section


# -- no secret leaves by the webhook ---------------------------------------------------


@pytest.mark.parametrize("format", FORMATS)
def test_no_webhook_payload_in_any_format_carries_a_secret(
    format, django_capture_on_commit_callbacks
):
    """Pax Baltica, a webhook in ``format``: private and GM press are written, Sweden's
    orders are sealed in recruitment, phases resolve with hidden blocks on both sides;
    every payload handed to the worker is public news, naming no block."""
    pb = make_pb_campaign()
    users = seat_users(pb, "sweden", "russia")
    with_hook(pb, format)
    secrets = set(Block.objects.filter(campaign=pb).values_list("name", flat=True))
    secrets |= {"Pact of Narva", "A question for the GM only"}
    seats = {s.power.key if s.power else s.role: s for s in pb.seats.select_related("power")}
    wachtmeister = Block.objects.get(campaign=pb, name="Wachtmeister").pk
    with django_capture_on_commit_callbacks(execute=True):
        press.post_message(
            seat=seats["sweden"],
            to=press.PRIVATE_CHOICE,
            chosen=["russia"],
            text="Pact of Narva",
        )
        press.post_message(
            seat=seats["russia"], to=press.GM_CHOICE, chosen=[], text="A question for the GM only"
        )
        order(pb, "sweden", {"reinforce": [{"block": wachtmeister, "steps": 1}], "draws": 0})
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            resolve(pb, users["gm"])
    payloads = [payload for url, payload in sent() if url == HOOK]
    # three phases resolved, three opened, two messages announced (their text never sent)
    assert len(payloads) == 8
    news = [p for p in payloads if p.get("event") != "press"]  # JSON's press: more fields
    assert all(set(p) == SHAPES[format] for p in news)
    said = json.dumps(payloads, ensure_ascii=False)
    assert "is resolved" in said and "is open" in said
    leaked = sorted(secret for secret in secrets if secret in said)
    assert not leaked, leaked
