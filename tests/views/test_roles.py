"""Every URL with every role: anonymous, outsider, another power's player, the power's
player, observer, GM. Refused requests change nothing."""

import pytest
from django.urls import get_resolver, reverse

from campaign.models import Campaign, Order
from campaign.play.services import resolve_open_phase
from tests.factories import snapshot
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db

SEATED = ("other_player", "player", "observer", "gm")
LOGGED_IN = ("outsider", *SEATED)


def expect(default=None, **by_role):
    """Expected status per role: anonymous is sent to log in unless said otherwise."""
    table = {"anonymous": 302, **dict.fromkeys(LOGGED_IN, default)}
    table.update(by_role)
    return table


def spain_seat(campaign):
    return campaign.seats.get(power__key="spain")


def resolved_phase_id(campaign):
    """Resolve the open phase (no orders, seeded dice) and return its id: a phase whose
    seed is revealed, for the verify page."""
    phase_id = campaign.phase_id
    resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=phase_id, actor=None)
    return phase_id


def options_data(campaign):
    current = {key: str(value) for key, value in campaign.rule_options.items()}
    return {**current, "dice_mode": "seeded"}


CASES = {
    "list": ("get", lambda c: reverse("campaign:list"), None, expect(200)),
    "new": ("get", lambda c: reverse("campaign:new"), None, expect(200)),
    "detail": (
        "get",
        lambda c: reverse("campaign:detail", args=[c.pk]),
        None,
        expect(200, outsider=404),
    ),
    "area": (
        "get",
        lambda c: reverse("campaign:area", args=[c.pk, "palatinate"]),
        None,
        expect(200, outsider=404),
    ),
    "question": (
        "get",
        lambda c: reverse("campaign:question", args=[c.pk, "line", 1]),
        None,
        expect(404),  # Empires in Arms asks no questions; Pax Baltica's: test_pb_views
    ),
    "gm": (
        "get",
        lambda c: reverse("campaign:gm", args=[c.pk]),
        None,
        expect(403, outsider=404, gm=200),
    ),
    "rules": (
        "get",
        lambda c: reverse("campaign:rules", args=["empires_in_arms"]),
        None,
        expect(200, anonymous=200),
    ),
    "signup": ("get", lambda c: reverse("campaign:signup"), None, expect(302, anonymous=200)),
    "join": (
        "get",
        lambda c: reverse("campaign:join", args=[spain_seat(c).invite_token]),
        None,
        expect(200, anonymous=200),  # anyone may read an invitation; taking it needs a login
    ),
    "lobby": ("get", lambda c: reverse("campaign:lobby"), None, expect(200, anonymous=200)),
    "lobby_ask": (
        "post",
        lambda c: reverse("campaign:lobby_ask", args=[c.pk, spain_seat(c).power_id]),
        lambda c: {},
        expect(422),  # the campaign is not in the lobby; see test_home_and_lobby
    ),
    "lobby_watch": (
        "post",
        lambda c: reverse("campaign:lobby_watch", args=[c.pk]),
        lambda c: {},
        expect(422),
    ),
    "lobby_settings": (
        "post",
        lambda c: reverse("campaign:lobby_settings", args=[c.pk]),
        lambda c: {"lobby_open": "on"},
        expect(403, outsider=404, gm=302),
    ),
    "seat_request": (
        "post",
        lambda c: reverse("campaign:seat_request", args=[c.pk, 10**17]),
        lambda c: {"answer": "accept"},
        expect(403, outsider=404, gm=422),  # no such request
    ),
    "orders": (
        "post",
        lambda c: reverse("campaign:orders", args=[c.pk]),
        lambda c: {"phase": c.phase_id, "ready": "1"},
        expect(302, outsider=404, observer=403, gm=403),
    ),
    "standing": (
        "post",
        lambda c: reverse("campaign:standing", args=[c.pk]),
        lambda c: {"pays_bad_roll": "no"},
        expect(302, outsider=404, observer=403, gm=403),
    ),
    "decision": (
        "post",
        lambda c: reverse("campaign:decision", args=[c.pk]),
        lambda c: {"phase": c.phase_id},
        expect(409, outsider=404),  # nothing waits for a decision; see test_vq_views
    ),
    "advance": (
        "post",
        lambda c: reverse("campaign:advance", args=[c.pk]),
        lambda c: {"phase": c.phase_id},
        expect(403, outsider=404, gm=302),
    ),
    "start": (
        "post",
        lambda c: reverse("campaign:start", args=[c.pk]),
        lambda c: {},
        expect(403, outsider=404, gm=409),
    ),
    "edit": (
        "post",
        lambda c: reverse("campaign:edit", args=[c.pk, "power"]),
        lambda c: {"power": "spain", "zone": "Fiasco", "political_points": "3", "treasury": "9"},
        expect(403, outsider=404, gm=302),
    ),
    "edit_item": (
        "get",
        lambda c: reverse("campaign:edit_item", args=[c.pk, "power"]) + "?item=spain",
        None,
        expect(403, outsider=404, gm=200),
    ),
    "timeline": (
        "get",
        lambda c: reverse("campaign:timeline", args=[c.pk]),
        None,
        expect(200, outsider=404),
    ),
    "seat": (
        "post",
        lambda c: reverse("campaign:seat", args=[c.pk, spain_seat(c).pk]),
        lambda c: {"username": ""},
        expect(403, outsider=404, gm=302),
    ),
    "options": (
        "post",
        lambda c: reverse("campaign:options", args=[c.pk]),
        options_data,
        expect(403, outsider=404, gm=302),
    ),
    "deadline": (
        "post",
        lambda c: reverse("campaign:deadline", args=[c.pk]),
        lambda c: {"phase": c.phase_id, "deadline": "2999-01-01T20:00"},
        expect(403, outsider=404, gm=302),
    ),
    "clock": (
        "post",
        lambda c: reverse("campaign:clock", args=[c.pk]),
        lambda c: {"phase": c.phase_id, "action": "extend", "hours": "24"},
        expect(403, outsider=404, gm=302),
    ),
    "plays": (
        "post",
        lambda c: reverse("campaign:plays", args=[c.pk]),
        lambda c: {"power": "spain"},
        expect(403, outsider=404, gm=302),
    ),
    "schedule": (
        "post",
        lambda c: reverse("campaign:schedule", args=[c.pk]),
        lambda c: {"auto_resolve": "on", "webhook_url": ""},
        expect(403, outsider=404, gm=302),
    ),
    "webhook_test": (
        "post",
        lambda c: reverse("campaign:webhook_test", args=[c.pk]),
        lambda c: {},
        expect(403, outsider=404, gm=422),  # no webhook URL saved: nothing sent
    ),
    "absent": (
        "post",
        lambda c: reverse("campaign:absent", args=[c.pk, spain_seat(c).power_id]),
        lambda c: {"absent": "on"},
        expect(403, outsider=404, gm=302),
    ),
    "preferences": ("get", lambda c: reverse("campaign:preferences"), None, expect(200)),
    "personal_data": ("get", lambda c: reverse("campaign:personal_data"), None, expect(200)),
    "delete_account": (
        "post",
        lambda c: reverse("campaign:delete_account"),
        lambda c: {"password": "not-the-password", "erase_press": "on"},
        expect(422),  # the right one: tests/views/test_personal_data.py
    ),
    "privacy": ("get", lambda c: reverse("campaign:privacy"), None, expect(200, anonymous=200)),
    "status": (
        "get",
        lambda c: reverse("campaign:status", args=[c.pk]) + f"?phase={c.phase_id}&status=open",
        None,
        expect(204, outsider=404),
    ),
    "observer": (
        "post",
        lambda c: reverse("campaign:observer", args=[c.pk]),
        lambda c: {},
        expect(403, outsider=404, gm=302),
    ),
    "export": (
        "get",
        lambda c: reverse("campaign:export", args=[c.pk]),
        None,
        expect(403, outsider=404, gm=200),
    ),
    "verify": (
        "get",
        lambda c: reverse("campaign:verify", args=[c.pk, resolved_phase_id(c)]),
        None,
        expect(200, outsider=404),  # an open phase: 409, see test_verify
    ),
    "history": (
        "get",
        lambda c: reverse("campaign:history", args=[c.pk, resolved_phase_id(c)]),
        None,
        expect(200, outsider=404),  # an open phase: 409, see test_history
    ),
    "map_svg": (
        "get",
        lambda c: reverse("campaign:map_svg", args=[c.pk]),
        None,
        expect(200, outsider=404),
    ),
    "phase_map_svg": (
        "get",
        lambda c: reverse("campaign:phase_map_svg", args=[c.pk, resolved_phase_id(c)]),
        None,
        expect(200, outsider=404),  # an open phase: 404, see test_map_download
    ),
    "rollback": (
        "post",
        lambda c: (resolved_phase_id(c), reverse("campaign:rollback", args=[c.pk]))[1],
        lambda c: {"confirm": "on"},
        expect(403, outsider=404, gm=302),
    ),
    "end": (
        "post",
        lambda c: reverse("campaign:end", args=[c.pk]),
        lambda c: {"confirm": "on", "state_version": Campaign.objects.get(pk=c.pk).state_version},
        expect(403, outsider=404, gm=302),
    ),
    "press": (
        "get",
        lambda c: reverse("campaign:press", args=[c.pk]),
        None,
        expect(200, outsider=404),
    ),
    "press_channel": (
        "get",
        lambda c: reverse("campaign:press_channel", args=[c.pk, "public"]),
        None,
        expect(200, outsider=404),
    ),
    "press_rules": (
        "post",
        lambda c: reverse("campaign:press_rules", args=[c.pk]),
        lambda c: {"press": "public"},
        expect(403, outsider=404, gm=302),
    ),
    "join_post": (
        "post",
        lambda c: reverse("campaign:join", args=[spain_seat(c).invite_token]),
        lambda c: {},
        expect(409, outsider=302),
    ),
}


@pytest.mark.sampled(every=4)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES)
def test_every_url_with_every_role(campaign, client_as, role, case):
    method, url_of, data_of, expected = CASES[case]
    url = url_of(campaign)
    before = snapshot(campaign)
    client = client_as(role)
    response = client.get(url) if method == "get" else client.post(url, data_of(campaign))
    assert response.status_code == expected[role], response.content.decode()[:1500]
    if role == "anonymous" and expected[role] == 302:
        assert response["Location"].startswith(reverse("login"))
    if method == "post" and response.status_code != 302 or role == "anonymous":
        assert snapshot(campaign) == before


def test_every_campaign_url_has_a_role_case():
    """Here, or in the role × URL matrix (tests/reliability/test_url_matrix.py)."""
    from tests.reliability.test_url_matrix import BUILDERS

    names = {pattern.name for pattern in get_resolver().url_patterns[-1].url_patterns}
    covered = {case.removesuffix("_post") for case in CASES} | set(BUILDERS)
    assert names <= covered


@pytest.mark.parametrize("role", ROLES)
def test_a_player_gives_orders_only_for_the_power_of_the_seat(campaign, client_as, role):
    url = reverse("campaign:orders", args=[campaign.pk])
    client_as(role).post(url, {"phase": campaign.phase_id, "ready": "1"})
    powers = set(Order.objects.filter(campaign=campaign).values_list("power__key", flat=True))
    own = {"player": {"france"}, "other_player": {"great_britain"}}
    assert powers == own.get(role, set())


def test_a_player_cannot_name_another_power_in_the_post(campaign, client_as):
    url = reverse("campaign:orders", args=[campaign.pk])
    data = {"phase": campaign.phase_id, "ready": "1", "power": "great_britain"}
    response = client_as("player").post(url, data)
    assert response.status_code == 422
    assert not Order.objects.filter(campaign=campaign).exists()


@pytest.mark.parametrize("role", ROLES)
def test_a_missing_campaign_is_404_for_everyone_logged_in(campaign, client_as, role):
    missing = Campaign.objects.order_by("-pk").first().pk + 1
    response = client_as(role).get(reverse("campaign:detail", args=[missing]))
    assert response.status_code == (302 if role == "anonymous" else 404)


def test_the_gm_dashboard_says_why_a_player_is_refused(campaign, client_as):
    response = client_as("player").get(reverse("campaign:gm", args=[campaign.pk]))
    assert "Only the game master" in response.content.decode()
