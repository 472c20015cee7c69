"""The read-only API (campaign/api/), through personal access tokens, as every role: my
campaigns, the orders I owe, a campaign's state and log as I see them on the pages; 404
for a campaign I do not sit in, 401 without a valid token, 429 past the rate limit; no
answer holds another power's sealed orders, private press or private notes; a bounded
number of queries; the OpenAPI document lists every route."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone, translation

from campaign.api import tokens
from campaign.models import Campaign, Event, Order, Phase, Profile, Seat
from campaign.models.reach import AccessToken
from campaign.press import notes, press
from rules.translation import Name
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db
SEATED = ("gm", "player", "other_player", "observer")
ROLES = (*SEATED, "outsider")
POWER_OF = {"player": "france", "other_player": "great_britain"}


def api_url_names() -> set[str]:
    """Every route name of the API's URL conf."""
    (resolver,) = (
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and p.namespace == "api"
    )
    return {pattern.name for pattern in resolver.url_patterns}


def bearer(user, name: str = "bot") -> Client:
    """A client sending a new token of ``user``'s."""
    _, token = tokens.make_token(user=user, name=name)
    return Client(headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def api_as(users):
    """A client with a token of a role's user ("anonymous": no token)."""
    return lambda role: Client() if role == "anonymous" else bearer(users[role])


def state_url(campaign) -> str:
    return reverse("api:campaign", args=[campaign.pk])


def log_url(campaign) -> str:
    return reverse("api:log", args=[campaign.pk])


def due_tomorrow(campaign) -> None:
    deadline = timezone.now() + timedelta(days=1)
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)


# -- every route, every role -----------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_my_campaigns_say_my_seat(api_as, campaign, users, role):
    due_tomorrow(campaign)
    found = api_as(role).get(reverse("api:campaigns")).json()
    if role == "outsider":
        assert found == []
        return
    (mine,) = found
    seat = Seat.objects.get(campaign=campaign, user=users[role])
    assert (mine["id"], mine["name"], mine["role"]) == (campaign.pk, campaign.name, seat.role)
    assert mine["power"] == (
        {"key": POWER_OF[role], "name": seat.power.name} if seat.power else None
    )
    assert mine["phase"]["key"] == campaign.phase.key == "peace"
    assert mine["phase"]["deadline"] is not None
    assert mine["orders_due"] is (role == "other_player")  # the peace step: Britain owes
    assert mine["url"].endswith(reverse("campaign:detail", args=[campaign.pk]))


@pytest.mark.parametrize("role", ROLES)
def test_orders_due_are_those_my_power_owes(api_as, campaign, users, role):
    due_tomorrow(campaign)
    found = api_as(role).get(reverse("api:orders_due")).json()
    if role != "other_player":
        assert found == []
        return
    (due,) = found
    assert (due["campaign_id"], due["power"]["key"], due["ready"]) == (
        campaign.pk,
        "great_britain",
        False,
    )
    assert due["phase"]["id"] == campaign.phase_id
    assert due["deadline"] == due["phase"]["deadline"] is not None


def test_orders_due_come_nearest_deadline_first_and_ready_ones_say_so(users):
    user = users["other_player"]
    later, sooner = make_eia_campaign(areas=3), make_eia_campaign(areas=3)
    for hours, campaign in ((48, later), (2, sooner)):
        Seat.objects.filter(campaign=campaign, power__key="great_britain").update(user=user)
        Phase.objects.filter(pk=campaign.phase_id).update(
            deadline=timezone.now() + timedelta(hours=hours)
        )
    power = sooner.powers.get(key="great_britain")
    Order.objects.create(
        campaign=sooner, phase_id=sooner.phase_id, power=power, payload={}, ready=True
    )
    found = bearer(user).get(reverse("api:orders_due")).json()
    assert [d["campaign_id"] for d in found][:2] == [sooner.pk, later.pk]
    assert [d["ready"] for d in found][:2] == [True, False]


@pytest.mark.parametrize("role", ROLES)
def test_a_campaigns_state_as_the_page_shows_it(api_as, campaign, users, role):
    response = api_as(role).get(state_url(campaign))
    if role == "outsider":
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}
        return
    state = response.json()
    assert state["id"] == campaign.pk and state["role"] == role.replace("other_", "")
    areas = {area["key"]: area for area in state["areas"]}
    assert areas.keys() == set(campaign.areas.values_list("key", flat=True))
    assert areas["palatinate"]["controller"] == "France"
    readiness = {row["power"]: row for row in state["readiness"]}
    assert readiness["Great Britain"]["awaited"] == "owes"
    assert state["panels"] and state["columns"]


@pytest.mark.parametrize("role", ROLES)
def test_a_campaigns_log_as_the_page_shows_it(api_as, campaign, users, role):
    response = api_as(role).get(log_url(campaign))
    if role == "outsider":
        assert response.status_code == 404
        return
    page = response.json()
    ids = [line["id"] for line in page["lines"]]
    assert ids == sorted(ids) and set(ids) <= set(Event.objects.values_list("pk", flat=True))
    assert page["next_after"] is None


@pytest.mark.parametrize(
    "url", ["api:campaigns", "api:orders_due", "api:campaign", "api:log"], ids=str
)
@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer", "Bearer courier_forged", "Token x", "Basic dXNlcjpwYXNz"],
    ids=str,
)
def test_no_valid_token_is_401_with_a_json_error(campaign, url, authorization):
    path = reverse(url, args=[campaign.pk] if url in ("api:campaign", "api:log") else [])
    headers = {"Authorization": authorization} if authorization else {}
    response = Client(headers=headers).get(path)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "access token" in response.json()["detail"]


def test_a_revoked_token_or_an_inactive_user_is_401(campaign, users):
    _, token = tokens.make_token(user=users["player"], name="bot")
    client = Client(headers={"Authorization": f"Bearer {token}"})
    assert client.get(state_url(campaign)).status_code == 200
    users["player"].is_active = False
    users["player"].save()
    assert client.get(state_url(campaign)).status_code == 401
    users["player"].is_active = True
    users["player"].save()
    row = AccessToken.objects.get(user=users["player"])
    tokens.revoke_token(user=users["player"], token_id=row.pk)
    assert client.get(state_url(campaign)).status_code == 401


def test_a_session_is_no_token(client_as, campaign):
    """The API answers tokens only: a browser's login (and its cookies) reads nothing."""
    assert client_as("player").get(reverse("api:campaigns")).status_code == 401


def test_another_campaign_or_no_campaign_is_404(api_as, campaign, users):
    other = make_eia_campaign(areas=3)
    seat_users(other)
    client = api_as("player")
    for campaign_id in (other.pk, 10**17, 10**30, 0):
        for url in ("api:campaign", "api:log"):
            response = client.get(reverse(url, args=[campaign_id]))
            assert response.status_code == 404, (url, campaign_id)
    assert client.get(f"/api/campaigns/{campaign.pk}x").status_code in (404, 422)


def test_the_log_is_paged_and_its_bounds_are_refused(api_as, campaign, users):
    for number in range(5):
        Event.objects.create(campaign=campaign, turn=1, kind="gm", text=f"line {number}")
    client = api_as("player")
    seen, after = [], 0
    for _ in range(10):
        page = client.get(log_url(campaign), {"after": after, "limit": 2}).json()
        assert len(page["lines"]) <= 2
        seen += [line["text"] for line in page["lines"]]
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert seen[-5:] == [f"line {number}" for number in range(5)]
    for bad in ({"limit": 0}, {"limit": 501}, {"after": -1}, {"after": "x"}, {"limit": "9" * 30}):
        assert client.get(log_url(campaign), bad).status_code == 422, bad


def test_the_last_use_is_written_once_a_minute(campaign, users):
    client = bearer(users["player"])
    row = AccessToken.objects.get(user=users["player"])
    assert row.last_used_at is None
    client.get(reverse("api:campaigns"))
    first = AccessToken.objects.get(pk=row.pk).last_used_at
    assert first is not None
    client.get(reverse("api:campaigns"))
    assert AccessToken.objects.get(pk=row.pk).last_used_at == first
    AccessToken.objects.filter(pk=row.pk).update(last_used_at=first - timedelta(minutes=2))
    client.get(reverse("api:campaigns"))
    assert AccessToken.objects.get(pk=row.pk).last_used_at > first


def test_past_the_rate_limit_a_user_gets_429_whichever_token_he_sends(campaign, users, settings):
    settings.API_RATE_LIMIT = 3
    client, other = bearer(users["player"], "one"), bearer(users["player"], "two")
    answers = [client.get(reverse("api:campaigns")) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1]["Retry-After"] == "60"
    assert "Too many requests" in answers[-1].json()["detail"]
    assert other.get(reverse("api:campaigns")).status_code == 429  # counted per user
    assert bearer(users["other_player"]).get(reverse("api:campaigns")).status_code == 200


def test_the_answer_is_in_the_users_chosen_language(campaign, users):
    Profile.objects.update_or_create(user=users["player"], defaults={"language": "ru"})
    (mine,) = bearer(users["player"]).get(reverse("api:campaigns")).json()
    with translation.override("ru"):
        russian = str(campaign.rules.phase("peace").name)
    with translation.override("en"):
        english = str(campaign.rules.phase("peace").name)
    assert mine["phase"]["name"] == russian != english


def test_the_states_names_are_in_the_users_chosen_language(campaign, users):
    """A scenario's words (areas, powers) are Names: the answer holds them as the page
    shows them, not as stored."""
    Profile.objects.update_or_create(user=users["player"], defaults={"language": "ru"})
    state = bearer(users["player"]).get(reverse("api:campaign", args=[campaign.pk])).json()
    with translation.override("ru"):
        shown = {area.key: str(Name(area.name)) for area in campaign.areas.all()}
    assert {row["key"]: row["name"] for row in state["areas"]} == shown
    assert any(shown[key] != name for key, name in campaign.areas.values_list("key", "name"))


# -- what nobody else may read ----------------------------------------------------------


def test_sealed_orders_private_press_and_notes_reach_nobody_else(campaign, users):
    """Britain's draft orders, France and Britain's private press and each role's private
    notes: in no answer of any route to anyone but their own, whoever asks. The GM
    plays Spain and has not sealed its orders, so reads no other power's."""
    Campaign.objects.filter(pk=campaign.pk).update(press=Campaign.Press.FULL)
    campaign.refresh_from_db()
    order_marker = f"ORDER-{uuid.uuid4().hex}"
    power = campaign.powers.get(key="great_britain")
    Order.objects.create(
        campaign=campaign, phase_id=campaign.phase_id, power=power, payload={"note": order_marker}
    )
    press_marker = f"PRESS-{uuid.uuid4().hex}"
    france = Seat.objects.get(campaign=campaign, user=users["player"])
    press.post_message(
        seat=france, to=press.PRIVATE_CHOICE, chosen=["great_britain"], text=press_marker
    )
    note_markers = {}
    for role in SEATED:
        note_markers[role] = f"NOTE-{role}-{uuid.uuid4().hex}"
        notes.save_note(
            campaign_id=campaign.pk, user=users[role], phase_id=None, text=note_markers[role]
        )
    spain = campaign.powers.get(key="spain")
    Seat.objects.filter(campaign=campaign, power=spain).delete()
    Seat.objects.filter(campaign=campaign, role=Seat.Role.GM).update(power=spain)
    for role in ROLES:
        client = bearer(users[role])
        bodies = [
            client.get(
                reverse(name, args=[campaign.pk] if name.endswith(("campaign", "log")) else [])
            ).content.decode()
            for name in ("api:campaigns", "api:orders_due", "api:campaign", "api:log")
        ]
        text = "".join(bodies)
        assert (order_marker in text) is (role == "other_player"), role
        assert press_marker not in text, role
        leaked = [m for writer, m in note_markers.items() if m in text]
        assert not leaked, (role, leaked)


def test_a_gm_who_does_not_play_reads_every_order_as_on_the_dashboard(api_as, campaign):
    power = campaign.powers.get(key="great_britain")
    Order.objects.create(
        campaign=campaign, phase_id=campaign.phase_id, power=power, payload={"note": "peace"}
    )
    assert api_as("gm").get(state_url(campaign)).json()["orders"] == {
        "great_britain": {"note": "peace"}
    }
    assert api_as("player").get(state_url(campaign)).json()["orders"] == {}
    assert api_as("observer").get(state_url(campaign)).json()["orders"] == {}


# -- queries -----------------------------------------------------------------------------


def sit_in(user, count: int) -> None:
    for _ in range(count):
        campaign = make_eia_campaign(areas=3)
        Seat.objects.filter(campaign=campaign, power__key="great_britain").update(user=user)


@pytest.mark.parametrize("name", ["api:campaigns", "api:orders_due"])
def test_the_lists_take_as_many_queries_for_one_campaign_as_for_four(
    campaign, users, name, django_assert_max_num_queries
):
    client = bearer(users["other_player"])
    client.get(reverse(name))  # the last use written
    with django_assert_max_num_queries(2):
        assert len(client.get(reverse(name)).json()) == 1
    sit_in(users["other_player"], 3)
    with django_assert_max_num_queries(2):
        assert len(client.get(reverse(name)).json()) == 4


@pytest.mark.parametrize("areas", [3, 10])
@pytest.mark.parametrize("name", ["api:campaign", "api:log"])
def test_a_campaigns_routes_take_a_bounded_number_of_queries(
    users, name, areas, django_assert_max_num_queries
):
    campaign = make_eia_campaign(areas=areas)
    mine = seat_users(campaign)
    client = bearer(mine["player"])
    client.get(reverse(name, args=[campaign.pk]))  # the World cached, as for the pages
    with django_assert_max_num_queries(5):
        assert client.get(reverse(name, args=[campaign.pk])).status_code == 200


# -- the document ------------------------------------------------------------------------


def test_the_openapi_document_lists_every_route():
    response = Client().get(reverse("api:openapi-json"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    document = json.loads(response.content)
    assert document["openapi"].startswith("3.")
    routes = {
        reverse(f"api:{name}", args=[1] if name in ("campaign", "log") else []).replace(
            "/1", "/{campaign_id}"
        )
        for name in api_url_names() - {"openapi-json", "api-root"}
    }
    assert set(document["paths"]) == routes
    for path, operations in document["paths"].items():
        assert set(operations) == {"get"}, path  # read-only
        assert {"200", "401", "429"} <= set(operations["get"]["responses"]), path
    schemes = document["components"]["securitySchemes"]
    assert [s["scheme"] for s in schemes.values()] == ["bearer"]


def test_no_docs_page_pulls_scripts_from_elsewhere():
    assert Client().get("/api/docs").status_code == 404
