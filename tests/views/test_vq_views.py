"""Virgin Queen through the Django test client: the impulse order form (only the impulse's
power, only the actions open to it, espionage from turn 3 and its markers), a conversion
and two revolts through every decision the decision view asks (HTMX and not), the GM
answering for a power on the dashboard, every bad input of the issue (a clear refusal
that changes nothing), and the GM's Virgin Queen edits."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaign.models import Area, Event, Order, Phase, PowerRelation, Seat
from campaign.play import services
from rules.dice import ScriptedDice
from rules.translation import localized
from rules.virgin_queen.models import VqLeader, VqPending, VqPower, VqSpace, VqUnits, VqZone
from rules.virgin_queen.procedures import stack_text
from rules.virgin_queen.state import Units
from tests.factories import (
    PASSWORD,
    dashboard_with_edits,
    make_vq_campaign,
    seat_users,
    snapshot,
)
from tests.maps import with_map
from tests.services.test_eia_phase_services import resolve

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
POWERS = ("ottoman", "spain", "england", "france", "hre", "protestant")
SEEDED_LYON = [1, 2, 5]  # the seed's example: 3 CP against Lyon, one hit
FIELD_ERROR = 'class="errorlist"'  # a field's error shown beside it


@pytest.fixture
def vq(db):
    """GM-driven: a decision asked of a power without a player waits for the GM (a campaign
    that resolves itself answers it by default: tests/services/test_never_stall.py)."""
    return make_vq_campaign(auto_resolve=False)


@pytest.fixture
def vq_users(vq):
    """gm, observer, outsider; "player" plays Spain, "other_player" the Protestant."""
    return seat_users(vq, "spain", "protestant")


@pytest.fixture
def as_role(vq, vq_users):
    """A client logged in as "gm", "observer", "outsider", or a power's player (by key;
    the powers other than Spain and the Protestant get a user on first use)."""
    seated = {"spain": "player", "protestant": "other_player"}

    def make(role: str) -> Client:
        if role in seated:
            user = vq_users[seated[role]]
        elif role in vq_users:
            user = vq_users[role]
        else:
            user = get_user_model().objects.filter(username=f"{role}-{vq.pk}").first()
            if user is None:
                user = get_user_model().objects.create_user(f"{role}-{vq.pk}", password=PASSWORD)
                Seat.objects.filter(campaign=vq, power__key=role).update(user=user)
        client = Client()
        client.force_login(user)
        return client

    return make


# -- helpers --------------------------------------------------------------------------


def to_phase(campaign, key: str, turn: int | None = None) -> None:
    """Resolve (seeded dice, no orders: every impulse passes) until ``key`` is open (on
    ``turn`` if given)."""
    for _ in range(30):
        campaign.refresh_from_db()
        if campaign.phase.key == key and turn in (None, campaign.turn):
            return
        resolve(campaign)
    raise AssertionError(f"phase {key!r} not reached")


def detail(client, campaign) -> str:
    """The campaign page, its map loaded."""
    response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    return with_map(client, response.content.decode())


def dashboard(client, campaign) -> str:
    """The GM dashboard, its map loaded."""
    response = client.get(reverse("campaign:gm", args=[campaign.pk]))
    assert response.status_code == 200
    return with_map(client, response.content.decode())


def post_orders(client, campaign, data, htmx=True, ready="1"):
    campaign.refresh_from_db()
    payload = {"phase": campaign.phase_id, "ready": ready, **data}
    extra = HTMX if htmx else {}
    return client.post(reverse("campaign:orders", args=[campaign.pk]), payload, **extra)


def post_decision(client, campaign, data, htmx=True, phase=None):
    campaign.refresh_from_db()
    payload = {"phase": campaign.phase_id if phase is None else phase, **data}
    extra = HTMX if htmx else {}
    return client.post(reverse("campaign:decision", args=[campaign.pk]), payload, **extra)


def advance(client, campaign, faces=None, monkeypatch=None):
    """The GM's "Close and resolve" (with ``faces`` scripted for this one resolve)."""
    campaign.refresh_from_db()
    url = reverse("campaign:advance", args=[campaign.pk])
    if faces is None:
        return client.post(url, {"phase": campaign.phase_id})
    with monkeypatch.context() as patch:
        patch.setattr(services, "_dice_for", lambda *args: ScriptedDice(list(faces)))
        return client.post(url, {"phase": campaign.phase_id})


def options_of(html: str, name: str) -> list[str]:
    """The values a <select name=…> offers."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return [v for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v]


def checkboxes_of(html: str, name: str) -> list[str]:
    return re.findall(rf'<input type="checkbox" name="{name}" value="([^"]*)"', html)


def highlighted(html: str) -> set[str]:
    """The map's highlighted spaces."""
    return set(re.findall(r'<g class="area highlight" id="map-([^"]+)"', html))


def decision_panel(html: str) -> str:
    panel = re.search(r'<section id="decision".*?</section>', html, re.S)
    return panel.group(0) if panel else ""


def stage(campaign) -> tuple[str, str, str] | None:
    pending = VqPending.objects.select_related("waiting_for").filter(campaign=campaign).first()
    return (pending.kind, pending.stage, pending.waiting_for.key) if pending else None


def space(campaign, key: str) -> VqSpace:
    return VqSpace.objects.select_related("area__controller").get(
        area__campaign=campaign, area__key=key
    )


def controller(campaign, key: str) -> str | None:
    area = Area.objects.select_related("controller").get(campaign=campaign, key=key)
    return area.controller.key if area.controller_id else None


def units(campaign, key: str) -> dict[tuple[str, str], int]:
    return {
        (u.power.key, u.kind): u.count
        for u in VqUnits.objects.select_related("power").filter(campaign=campaign, area__key=key)
    }


def at_war(campaign, a: str, b: str) -> bool:
    return PowerRelation.objects.filter(
        campaign=campaign, kind="war", a__key__in=(a, b), b__key__in=(a, b)
    ).exists()


def log_text(campaign) -> str:
    return "\n".join(Event.objects.filter(campaign=campaign).values_list("text", flat=True))


def assert_refused(response, status, campaign, before, *phrases):
    html = response.content.decode()
    assert response.status_code == status, html[:3000]
    for phrase in phrases:
        assert phrase in html, phrase
    assert snapshot(campaign) == before


def start_spain_conversion(vq, as_role, monkeypatch, faces=(6, 4, 1), attempts=3):
    """Spain orders a conversion in France and the GM resolves its impulse: with 6 4 1
    it waits for Spain's 6 (Bourges, Dijon and Lyon may flip now)."""
    to_phase(vq, "impulse_spain")
    order = {"action": "conversion", "zones": ["france"], "attempts": str(attempts)}
    assert post_orders(as_role("spain"), vq, order, htmx=False).status_code == 302
    assert advance(as_role("gm"), vq, faces, monkeypatch).status_code == 302
    vq.refresh_from_db()
    assert vq.phase.status == Phase.Status.WAITING


def start_lyon_revolt(vq, as_role, monkeypatch, cp=3, faces=SEEDED_LYON):
    to_phase(vq, "impulse_protestant")
    order = {"action": "revolt", "target": "lyon", "cp": str(cp)}
    assert post_orders(as_role("protestant"), vq, order).status_code == 200
    return advance(as_role("gm"), vq, faces, monkeypatch)


# -- the impulse order form -----------------------------------------------------------


def test_only_the_impulse_power_is_offered_orders(vq, as_role):
    vq.refresh_from_db()
    assert (vq.turn, vq.phase.key) == (1, "impulse_ottoman")
    ottoman = detail(as_role("ottoman"), vq)
    assert f'action="/campaigns/{vq.pk}/orders/"' in ottoman
    assert options_of(ottoman, "action") == ["other", "pass"]  # not Catholic, not Protestant
    spain = detail(as_role("spain"), vq)
    assert '<select name="action"' not in spain
    assert f'action="/campaigns/{vq.pk}/orders/"' not in spain


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_another_power_cannot_order_the_impulse(vq, as_role, htmx):
    client = as_role("spain")
    assert "Ottoman impulse takes orders from another power." in detail(client, vq)
    before = snapshot(vq)
    response = post_orders(client, vq, {"action": "pass"}, htmx=htmx)
    assert response.status_code in (403, 409)
    assert_refused(
        response,
        response.status_code,
        vq,
        before,
        "your orders were not saved",
        "Ottoman impulse takes orders from another power.",
    )
    assert not Order.objects.filter(campaign=vq).exists()


def test_the_impulse_power_orders_and_the_impulse_resolves(vq, as_role):
    response = post_orders(as_role("ottoman"), vq, {"action": "other", "note": "Build a corsair"})
    assert response.status_code == 200
    assert "Orders saved and marked ready." in response.content.decode()
    assert Order.objects.get(campaign=vq).payload == {"action": "other", "note": "Build a corsair"}
    assert advance(as_role("gm"), vq).status_code == 302
    vq.refresh_from_db()
    assert vq.phase.key == "impulse_spain"
    assert "Ottoman plays an action at the table: Build a corsair" in log_text(vq)


def test_a_catholic_power_is_offered_conversion_and_the_protestant_revolt(vq, as_role):
    to_phase(vq, "impulse_spain")
    spain = detail(as_role("spain"), vq)
    assert options_of(spain, "action") == ["conversion", "other", "pass"]
    assert set(checkboxes_of(spain, "zones")) == {"france", "germany", "netherlands"}
    assert 'name="target"' not in spain
    to_phase(vq, "impulse_england")
    assert options_of(detail(as_role("england"), vq), "action") == ["other", "pass"]
    to_phase(vq, "impulse_france")
    assert options_of(detail(as_role("france"), vq), "action") == ["conversion", "other", "pass"]
    to_phase(vq, "impulse_protestant")
    protestant = detail(as_role("protestant"), vq)
    assert options_of(protestant, "action") == ["revolt", "other", "pass"]
    assert 'name="zones"' not in protestant
    # only the legal targets: Protestant, under French or Spanish control, not besieged
    assert options_of(protestant, "target") == [
        "amsterdam",
        "antwerp",
        "clermont",
        "dijon",
        "lyon",
    ]
    assert options_of(protestant, "cp") == ["2", "3", "4", "5"]


def test_a_tampered_action_the_power_is_not_offered_says_why(vq, as_role):
    to_phase(vq, "impulse_protestant")
    before = snapshot(vq)
    data = {"action": "conversion", "zones": ["france"], "attempts": "2"}
    response = post_orders(as_role("protestant"), vq, data)
    assert_refused(response, 422, vq, before, "only Catholic powers attempt conversions")


@pytest.mark.parametrize("turn", [1, 2])
def test_espionage_is_not_offered_on_turns_1_and_2_and_a_tampered_post_says_why(vq, as_role, turn):
    to_phase(vq, "impulse_spain", turn)
    client = as_role("spain")
    assert "espionage" not in options_of(detail(client, vq), "action")
    before = snapshot(vq)
    response = post_orders(client, vq, {"action": "espionage", "note": "Walsingham"})
    assert_refused(
        response,
        422,
        vq,
        before,
        f"No espionage on turn {turn}: espionage actions begin on turn 3.",
    )


def test_turn_3_gives_every_power_its_espionage_markers_and_opens_espionage(vq, as_role):
    to_phase(vq, "impulse_spain", 2)
    assert "2 Informant" not in detail(as_role("spain"), vq)
    assert not any(VqPower.objects.filter(power__campaign=vq).values_list("informant", flat=True))
    to_phase(vq, "impulse_ottoman", 3)
    markers = {
        row.power.key: (row.informant, row.assassination_used, row.cipher_key)
        for row in VqPower.objects.select_related("power").filter(power__campaign=vq)
    }
    assert markers == {power: (2, 1, 1) for power in POWERS}
    html = detail(as_role("observer"), vq)
    assert html.count("2 Informant, 1 Assassination Used, 1 Cipher Key") == len(POWERS)
    assert "Turn 3: espionage begins." in html
    to_phase(vq, "impulse_spain", 3)
    client = as_role("spain")
    assert options_of(detail(client, vq), "action") == ["conversion", "espionage", "other", "pass"]
    response = post_orders(client, vq, {"action": "espionage", "note": "Walsingham"}, htmx=False)
    assert response.status_code == 302
    assert advance(as_role("gm"), vq).status_code == 302
    assert "Spain: an espionage action, played at the table: Walsingham" in log_text(vq)
    to_phase(vq, "impulse_ottoman", 4)  # given once, at the start of turn 3 only
    assert VqPower.objects.get(power__campaign=vq, power__key="spain").informant == 2


def test_a_marker_the_gm_gave_before_turn_3_does_not_stop_the_turn_3_markers(vq, as_role):
    to_phase(vq, "impulse_spain", 2)
    data = {"power": "england", "informant": "1", "assassination_used": "0", "cipher_key": "2"}
    assert gm_post(as_role("gm"), vq, "markers", data).status_code == 302
    to_phase(vq, "impulse_ottoman", 3)
    markers = {
        row.power.key: (row.informant, row.assassination_used, row.cipher_key)
        for row in VqPower.objects.select_related("power").filter(power__campaign=vq)
    }
    assert markers == {power: (3, 1, 3) if power == "england" else (2, 1, 1) for power in POWERS}
    assert log_text(vq).count("Turn 3: espionage begins.") == 1
    to_phase(vq, "impulse_ottoman", 4)  # once, when turn 3 begins
    assert VqPower.objects.get(power__campaign=vq, power__key="england").informant == 3


# -- a conversion through every decision --------------------------------------------------


def test_a_conversion_waits_for_spain_at_each_stage_and_only_spain_answers(
    vq, as_role, monkeypatch
):
    start_spain_conversion(vq, as_role, monkeypatch)
    assert stage(vq) == ("conversion", "sixes", "spain")
    spain = as_role("spain")

    # step 4: the 6, with the eligible spaces highlighted for Spain only
    html = detail(spain, vq)
    panel = decision_panel(html)
    assert "Your decision" in panel
    assert f'action="/campaigns/{vq.pk}/decision/"' in panel
    assert options_of(panel, "die_1") == ["keep", "lower", "bourges", "dijon", "lyon"]
    assert highlighted(html) == {"bourges", "dijon", "lyon"}
    assert "The spaces you may choose are highlighted on the map." in panel
    assert 'name="action"' not in html  # the impulse is under way: no more orders
    for role in ("protestant", "france", "observer"):
        other = detail(as_role(role), vq)
        assert "Waiting for Spain" in decision_panel(other)
        assert "Spain must decide before the impulse goes on." in other
        assert "<form" not in decision_panel(other)
        assert highlighted(other) == set()

    response = post_decision(spain, vq, {"die_1": "dijon"})  # HTMX: the page reloads
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("campaign:detail", args=[vq.pk])
    assert space(vq, "dijon").religion == "catholic"
    assert stage(vq) == ("conversion", "flips", "spain")

    # step 5: the 4 flips a space next to a Catholic one (Dijon counts now)
    html = detail(spain, vq)
    assert options_of(decision_panel(html), "die_2") == ["bourges", "lyon"]
    assert highlighted(html) == {"bourges", "lyon"}
    response = post_decision(spain, vq, {"die_2": "lyon"}, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[vq.pk])
    assert stage(vq) == ("conversion", "unrest", "spain")

    # step 6: the 1's unrest marker in one of the two converted spaces
    html = detail(spain, vq)
    assert checkboxes_of(decision_panel(html), "unrest") == ["dijon", "lyon"]
    assert highlighted(html) == {"dijon", "lyon"}
    response = post_decision(spain, vq, {"unrest": ["lyon"]})
    assert response.status_code == 200 and response["HX-Redirect"]

    vq.refresh_from_db()
    assert stage(vq) is None
    assert vq.phase.key == "impulse_england"
    assert Phase.objects.get(campaign=vq, key="impulse_spain").status == Phase.Status.RESOLVED
    assert [space(vq, k).religion for k in ("dijon", "lyon", "bourges")] == [
        "catholic",
        "catholic",
        "protestant",
    ]
    assert (space(vq, "lyon").unrest, space(vq, "dijon").unrest) == (True, False)
    html = detail(as_role("protestant"), vq)
    assert 'id="decision"' not in html
    assert "Dijon and Lyon converted to Catholic." in html
    assert "Unrest in Lyon (step 6)." in html


def test_the_gm_dashboard_shows_the_waiting_decision_and_the_gm_answers_for_spain(
    vq, as_role, vq_users, monkeypatch
):
    start_spain_conversion(vq, as_role, monkeypatch)
    gm = as_role("gm")
    html = dashboard(gm, vq)
    panel = decision_panel(html)
    assert "Waiting for Spain" in panel, "the GM dashboard does not show the waiting decision"
    assert f'action="/campaigns/{vq.pk}/decision/"' in panel
    assert "Decide for Spain" in panel
    assert highlighted(html) == {"bourges", "dijon", "lyon"}
    assert "Close and resolve" not in html  # it resolves once Spain has decided
    # the GM may answer from the campaign page too, where the choices are highlighted
    page = detail(gm, vq)
    assert "Decide for Spain" in decision_panel(page)
    assert highlighted(page) == {"bourges", "dijon", "lyon"}

    response = post_decision(gm, vq, {"die_1": "keep"}, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:gm", args=[vq.pk])
    assert stage(vq) == ("conversion", "flips", "spain")
    line = Event.objects.filter(campaign=vq, text__contains="die 1 is kept for step 5").get()
    assert line.actor == vq_users["gm"]
    # the kept 6 may flip La Rochelle despite its Huguenot regulars (conditions a and b)
    assert options_of(decision_panel(detail(gm, vq)), "die_1") == [
        "bourges",
        "dijon",
        "la_rochelle",
        "lyon",
    ]
    response = post_decision(gm, vq, {"die_1": "la_rochelle", "die_2": "dijon"})
    assert response["HX-Redirect"] == reverse("campaign:gm", args=[vq.pk])
    assert stage(vq) == ("conversion", "unrest", "spain")
    assert space(vq, "la_rochelle").religion == "catholic"


# -- revolts ------------------------------------------------------------------------------


def mercenaries_field(campaign) -> str:
    """The displacement field of the French mercenaries in Lyon."""
    pk = VqUnits.objects.get(campaign=campaign, area__key="lyon", kind="mercenary").pk
    return f"unit:{pk}"


def test_the_seeds_lyon_revolt_goes_through(vq, as_role, monkeypatch):
    response = start_lyon_revolt(vq, as_role, monkeypatch)
    assert response.status_code == 302
    # step 3: "the nearest fortified space under French control or Paris": France chooses
    assert stage(vq) == ("revolt", "displace", "france")
    assert units(vq, "lyon") == {("france", "mercenary"): 2}  # the regular destroyed
    assert controller(vq, "lyon") == "france"  # step 4 comes after the displacement
    field = mercenaries_field(vq)
    france = as_role("france")
    html = detail(france, vq)
    panel = decision_panel(html)
    assert "Your decision" in panel
    assert options_of(panel, field) == ["orleans", "paris"]
    assert highlighted(html) == {"orleans", "paris"}
    assert "dice 1 2 5, hits on 5–6: 1 hit" in html
    protestant = as_role("protestant")
    assert "<form" not in decision_panel(detail(protestant, vq))
    before = snapshot(vq)
    response = post_decision(protestant, vq, {field: "orleans"})
    assert_refused(response, 403, vq, before, "The decision is France&#x27;s to make.")
    response = post_decision(france, vq, {field: "dijon"})
    assert_refused(
        response,
        422,
        vq,
        before,
        "Your decision was not accepted",
        "Dijon is not among the nearest legal spaces (Orléans and Paris)",
    )
    response = post_decision(france, vq, {field: "orleans"})
    assert response["HX-Redirect"] == reverse("campaign:detail", args=[vq.pk])

    assert stage(vq) == ("revolt", "extra", "protestant")
    assert units(vq, "lyon") == {}
    assert units(vq, "orleans") == {("france", "mercenary"): 2}
    assert controller(vq, "lyon") == "protestant"
    assert "2 French mercenaries in Lyon displaced to Orléans (step 3)." in log_text(vq)
    html = detail(protestant, vq)
    assert "Your decision" in decision_panel(html)
    assert checkboxes_of(decision_panel(html), "extra") == ["clermont", "dijon"]
    assert highlighted(html) == {"clermont", "dijon"}
    assert "dice 1 2 5, hits on 5–6: 1 hit" in html
    assert "Waiting for Protestant" in decision_panel(detail(as_role("france"), vq))
    assert highlighted(detail(as_role("france"), vq)) == set()

    response = post_decision(protestant, vq, {"extra": ["dijon", "clermont"]}, htmx=False)
    assert response.status_code == 302
    vq.refresh_from_db()
    assert stage(vq) is None
    assert (vq.turn, vq.phase.key) == (2, "impulse_ottoman")
    assert {k: controller(vq, k) for k in ("lyon", "dijon", "clermont")} == {
        "lyon": "protestant",
        "dijon": "protestant",
        "clermont": "protestant",
    }
    assert units(vq, "lyon") == {("protestant", "regular"): 1}
    assert VqZone.objects.get(campaign=vq, key="france").regulars_available == 5
    assert at_war(vq, "protestant", "france")
    html = detail(as_role("observer"), vq)
    assert "The Huguenot capital is already in La Rochelle: no capital placed (step 7)." in html
    assert "the Protestant now controls Lyon, Dijon and Clermont." in html


def test_france_may_send_the_lyon_mercenaries_to_paris_its_capital(vq, as_role, monkeypatch):
    start_lyon_revolt(vq, as_role, monkeypatch)
    response = post_decision(as_role("france"), vq, {mercenaries_field(vq): "paris"}, htmx=False)
    assert response.status_code == 302
    assert units(vq, "paris") == {("france", "regular"): 3, ("france", "mercenary"): 2}
    assert units(vq, "orleans") == {}
    assert "2 French mercenaries in Lyon displaced to Paris (step 3)." in log_text(vq)
    assert stage(vq) == ("revolt", "extra", "protestant")


def test_the_gm_answers_a_displacement_for_france(vq, as_role, vq_users, monkeypatch):
    start_lyon_revolt(vq, as_role, monkeypatch)
    gm = as_role("gm")
    panel = decision_panel(dashboard(gm, vq))
    assert "Decide for France" in panel
    assert options_of(panel, mercenaries_field(vq)) == ["orleans", "paris"]
    response = post_decision(gm, vq, {mercenaries_field(vq): "orleans"}, htmx=False)
    assert response["Location"] == reverse("campaign:gm", args=[vq.pk])
    assert units(vq, "orleans") == {("france", "mercenary"): 2}
    line = Event.objects.get(campaign=vq, text__contains="displaced to Orléans (step 3)")
    assert line.actor == vq_users["gm"]


def test_with_automatic_displacement_the_mercenaries_go_to_the_first_by_name(
    vq, as_role, monkeypatch
):
    vq.options = {**vq.options, "displacement": "automatic"}
    vq.save(update_fields=["options"])
    assert start_lyon_revolt(vq, as_role, monkeypatch).status_code == 302
    assert stage(vq) == ("revolt", "extra", "protestant")  # nobody asked where they go
    assert units(vq, "orleans") == {("france", "mercenary"): 2}
    assert (
        "2 French mercenaries in Lyon displaced to Orléans (the nearest, first by name) (step 3)."
        in (log_text(vq))
    )


def test_france_allocates_the_hits_of_a_revolt_against_two_stacks(vq, as_role, monkeypatch):
    gm = as_role("gm")
    data = {"power": "france", "kind": "naval", "space": "lyon", "count": "1"}
    assert gm.post(reverse("campaign:edit", args=[vq.pk, "units"]), data).status_code == 302
    assert units(vq, "lyon")[("france", "naval")] == 1
    assert start_lyon_revolt(vq, as_role, monkeypatch).status_code == 302
    assert stage(vq) == ("revolt", "hits", "france")
    stacks = {
        u.kind: u.pk
        for u in VqUnits.objects.filter(campaign=vq, area__key="lyon", power__key="france")
    }

    protestant = as_role("protestant")
    html = detail(protestant, vq)
    assert "Waiting for France" in decision_panel(html)
    assert "France must decide before the impulse goes on." in html
    before = snapshot(vq)
    answer = {f"unit:{stacks['regular']}": "1", f"unit:{stacks['naval']}": "0"}
    response = post_decision(protestant, vq, answer)
    assert_refused(response, 403, vq, before, "The decision is France&#x27;s to make.")
    response = post_decision(protestant, vq, answer, htmx=False)
    assert_refused(response, 403, vq, before, "The decision is France&#x27;s to make.")

    france = as_role("france")
    html = detail(france, vq)
    assert options_of(decision_panel(html), f"unit:{stacks['regular']}") == ["0", "1"]
    response = post_decision(france, vq, answer)
    assert response["HX-Redirect"] == reverse("campaign:detail", args=[vq.pk])
    vq.refresh_from_db()
    assert stage(vq) is None and (vq.turn, vq.phase.key) == (2, "impulse_ottoman")
    assert units(vq, "lyon") == {("france", "naval"): 1, ("france", "mercenary"): 2}
    assert controller(vq, "lyon") == "france"
    assert not at_war(vq, "protestant", "france")
    assert "the revolt fails (step 2)" in log_text(vq)


# -- bad input: a clear refusal that changes nothing --------------------------------------


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        ({"target": "lyon", "cp": "1"}, "A revolt costs 2 to 5 CP (VQ-2)."),
        ({"target": "lyon", "cp": "6"}, "A revolt costs 2 to 5 CP (VQ-2)."),
        ({"target": "s-0", "cp": "3"}, "Space 000 is in neither France nor the Netherlands"),
        ({"target": "la_rochelle", "cp": "3"}, "La Rochelle is not under French political"),
        ({"target": "paris", "cp": "3"}, "Paris is Catholic, not under Protestant religious"),
        ({"target": "bourges", "cp": "3"}, "Bourges is under siege"),
        ({"target": "north_sea", "cp": "3"}, "“north_sea” cannot be the target of a revolt"),
        ({"target": "", "cp": "3"}, "A revolt needs its target and the CP spent"),
        ({"target": "lyon", "cp": "three"}, "A revolt costs 2 to 5 CP (VQ-2)."),
    ],
    ids=[
        "1cp",
        "6cp",
        "germany",
        "protestant-control",
        "catholic",
        "besieged",
        "sea",
        "none",
        "garbage",
    ],
)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_bad_revolt_is_refused_and_changes_nothing(vq, as_role, data, phrase, htmx):
    to_phase(vq, "impulse_protestant")
    before = snapshot(vq)
    response = post_orders(as_role("protestant"), vq, {"action": "revolt", **data}, htmx=htmx)
    assert_refused(response, 422, vq, before, "Your orders were not saved.", phrase)


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        ({"zones": ["france"], "attempts": "0"}, "0"),
        ({"zones": ["france"], "attempts": "7"}, "7"),
        ({"zones": ["atlantis"], "attempts": "2"}, "atlantis"),
        ({"zones": [], "attempts": "2"}, "A conversion needs the struggle zones"),
        ({"zones": ["france"], "attempts": "2", "event": "Papal Bull"}, "Papal Bull"),
        ({"zones": ["france"], "attempts": "2", "target": "lyon"}, "These orders have no “target”"),
    ],
    ids=["0-attempts", "7-attempts", "unknown-zone", "no-zone", "unknown-event", "tampered"],
)
def test_a_bad_conversion_order_is_refused_and_changes_nothing(vq, as_role, data, phrase):
    to_phase(vq, "impulse_spain")
    before = snapshot(vq)
    response = post_orders(as_role("spain"), vq, {"action": "conversion", **data})
    assert_refused(response, 422, vq, before, "Your orders were not saved.", phrase)


def test_a_revolt_whose_target_changed_since_the_order_is_refused_at_resolution(
    vq, as_role, monkeypatch
):
    to_phase(vq, "impulse_protestant")
    order = {"action": "revolt", "target": "lyon", "cp": "3"}
    assert post_orders(as_role("protestant"), vq, order).status_code == 200
    VqSpace.objects.filter(area__campaign=vq, area__key="lyon").update(besieged=True)
    vq.bump_version()  # as every change of the state does (pages keep the World by it)
    assert advance(as_role("gm"), vq).status_code == 302  # no dice rolled
    assert "Lyon is under siege: no revolt there." in log_text(vq)
    assert controller(vq, "lyon") == "france" and stage(vq) is None


@pytest.fixture
def at_sixes(vq, as_role, monkeypatch):
    start_spain_conversion(vq, as_role, monkeypatch)
    return vq


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ({"die_1": "clermont"}, "Clermont"),  # next to no Catholic space (condition b)
        ({"die_1": "la_rochelle"}, "La Rochelle"),  # Huguenot units: only a kept 6
        ({"die_1": "paris"}, "Paris"),  # already Catholic
        ({"die_1": "antwerp"}, "Antwerp"),  # not in France (condition a)
        ({"die_1": "s-0"}, "Space 000"),
        ({}, FIELD_ERROR),
        ({"die_1": "<script>alert(1)</script>"}, "&lt;script&gt;"),
    ],
    ids=["clermont", "protestant-units", "catholic", "other-zone", "germany", "blank", "xss"],
)
def test_a_six_that_cannot_flip_that_space_is_refused(at_sixes, as_role, answer, phrase):
    vq = at_sixes
    before = snapshot(vq)
    response = post_decision(as_role("spain"), vq, answer)
    assert_refused(response, 422, vq, before, "Your decision was not accepted", phrase)
    assert "Your decision" in response.content.decode()


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("clermont", "Clermont is next to no Catholic space"),
        ("antwerp", "Antwerp is not in France"),
        ("la_rochelle", "La Rochelle holds Protestant units"),
        ("paris", "Paris is already Catholic"),
    ],
)
def test_a_refused_flip_says_which_condition_the_space_fails(at_sixes, as_role, value, reason):
    """The issue asks for clear refusals: the procedure explains each one (condition a, b
    or c); the decision page should show that explanation, not only "reload the page"."""
    vq = at_sixes
    before = snapshot(vq)
    response = post_decision(as_role("spain"), vq, {"die_1": value})
    assert_refused(response, 422, vq, before, reason)


def test_two_spaces_for_one_six_are_refused(at_sixes, as_role):
    """A tampered post gives die 1 two spaces: Django's ChoiceField would silently keep
    the last; the answer must be refused instead (one die flips one space)."""
    vq = at_sixes
    before = snapshot(vq)
    response = post_decision(as_role("spain"), vq, {"die_1": ["dijon", "lyon"]})
    assert_refused(response, 422, vq, before, "Your decision was not accepted")


def test_flipping_more_spaces_than_the_dice_allow_is_refused(at_sixes, as_role):
    vq = at_sixes
    spain = as_role("spain")
    assert post_decision(spain, vq, {"die_1": "dijon"}).status_code == 200
    assert stage(vq) == ("conversion", "flips", "spain")
    before = snapshot(vq)
    # one die (the 4) to flip with; a tampered post flips a second space with the 1
    response = post_decision(spain, vq, {"die_2": "lyon", "die_3": "bourges"})
    assert_refused(response, 422, vq, before, "Your decision was not accepted", "die_3")


def test_unrest_only_in_a_space_this_action_converted(at_sixes, as_role):
    vq = at_sixes
    spain = as_role("spain")
    post_decision(spain, vq, {"die_1": "dijon"})
    post_decision(spain, vq, {"die_2": "lyon"})
    assert stage(vq) == ("conversion", "unrest", "spain")
    before = snapshot(vq)
    for answer, phrase in (
        ({"unrest": ["bourges"]}, "bourges"),  # Protestant, never converted
        ({"unrest": ["paris"]}, "paris"),  # Catholic from the start
        ({"unrest": ["dijon", "lyon"]}, "choose from 1 to 1"),  # two spaces, one marker
        ({"unrest": ["lyon", "lyon"]}, "Your decision was not accepted"),
        ({}, FIELD_ERROR),
    ):
        response = post_decision(spain, vq, answer)
        assert_refused(response, 422, vq, before, "Your decision was not accepted", phrase)


@pytest.mark.parametrize("role", ["protestant", "france", "observer"])
def test_a_decision_from_a_power_not_asked_is_refused(at_sixes, as_role, role):
    vq = at_sixes
    client = as_role(role)
    before = snapshot(vq)
    response = post_decision(client, vq, {"die_1": "dijon"})
    assert_refused(response, 403, vq, before, "The decision is Spain&#x27;s to make.")
    response = post_decision(client, vq, {"die_1": "dijon"}, htmx=False)
    assert_refused(response, 403, vq, before, "The decision is Spain&#x27;s to make.")


def test_a_decision_from_an_outsider_is_not_found(at_sixes, as_role):
    before = snapshot(at_sixes)
    response = post_decision(as_role("outsider"), at_sixes, {"die_1": "dijon"})
    assert response.status_code == 404
    assert snapshot(at_sixes) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_decision_when_none_is_asked_is_a_conflict(vq, as_role, htmx):
    to_phase(vq, "impulse_spain")
    before = snapshot(vq)
    for role in ("spain", "gm"):
        response = post_decision(as_role(role), vq, {"die_1": "dijon"}, htmx=htmx)
        assert_refused(response, 409, vq, before, "That decision is no longer asked.")


@pytest.mark.parametrize("phase", ["stale", "abc", "", "-1", "1e3", "٣"])
def test_a_decision_for_a_stale_or_garbage_phase_is_a_conflict(at_sixes, as_role, phase):
    vq = at_sixes
    stale = Phase.objects.filter(campaign=vq).exclude(pk=vq.phase_id).order_by("pk").first()
    phase = str(stale.pk) if phase == "stale" else phase
    before = snapshot(vq)
    response = post_decision(as_role("spain"), vq, {"die_1": "dijon"}, phase=phase)
    assert_refused(response, 409, vq, before, "That decision is no longer asked.")


def test_garbage_hit_allocations_are_refused(vq, as_role, monkeypatch):
    gm = as_role("gm")
    data = {"power": "france", "kind": "naval", "space": "lyon", "count": "1"}
    gm.post(reverse("campaign:edit", args=[vq.pk, "units"]), data)
    start_lyon_revolt(vq, as_role, monkeypatch)
    stacks = dict(
        VqUnits.objects.filter(campaign=vq, area__key="lyon", power__key="france")
        .exclude(kind="mercenary")
        .values_list("kind", "pk")
    )
    regular, naval = f"unit:{stacks['regular']}", f"unit:{stacks['naval']}"
    france = as_role("france")
    before = snapshot(vq)
    for answer, phrase in (
        ({regular: "0", naval: "0"}, "1 hit must be taken, one unit each, not 0."),
        ({regular: "1", naval: "1"}, "1 hit must be taken, one unit each, not 2."),
        ({regular: "2", naval: "0"}, "“2” is not one of the choices"),
        ({regular: "-1", naval: "1"}, "“-1” is not one of the choices"),
        ({regular: "x", naval: "1"}, "“x” is not one of the choices"),
        ({regular: "1"}, FIELD_ERROR),
    ):
        response = post_decision(france, vq, answer)
        assert_refused(response, 422, vq, before, phrase)
    # a tampered answer that also hits a stack it was not asked about (same bug as die_3)
    response = post_decision(france, vq, {regular: "1", naval: "0", "unit:99999": "1"})
    assert_refused(response, 422, vq, before, "Your decision was not accepted", "unit:99999")


def test_more_extra_spaces_than_the_cp_allow_are_refused(vq, as_role, monkeypatch):
    assert start_lyon_revolt(vq, as_role, monkeypatch, cp=2, faces=[5, 1]).status_code == 302
    assert stage(vq) == ("revolt", "displace", "france")
    response = post_decision(as_role("france"), vq, {mercenaries_field(vq): "orleans"})
    assert response["HX-Redirect"]
    assert stage(vq) == ("revolt", "extra", "protestant")
    protestant = as_role("protestant")
    before = snapshot(vq)
    for answer, phrase in (
        ({"extra": ["dijon", "clermont"]}, "choose from 0 to 1"),
        ({"extra": ["orleans"]}, "Orléans"),  # Catholic, and holds the mercenaries
        ({"extra": ["bourges"]}, "Bourges"),  # besieged and not adjacent
        ({"extra": ["lyon"]}, "Lyon"),  # the target itself
    ):
        response = post_decision(protestant, vq, answer)
        assert_refused(response, 422, vq, before, "Your decision was not accepted", phrase)
    response = post_decision(protestant, vq, {"extra": ["clermont"]})
    assert response["HX-Redirect"]
    assert (controller(vq, "clermont"), controller(vq, "dijon")) == ("protestant", "france")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_resolving_a_waiting_impulse_is_a_conflict(at_sixes, as_role, htmx):
    vq = at_sixes
    before = snapshot(vq)
    extra = HTMX if htmx else {}
    response = as_role("gm").post(
        reverse("campaign:advance", args=[vq.pk]), {"phase": vq.phase_id}, **extra
    )
    assert_refused(
        response, 409, vq, before, "Spanish impulse is under way and waits for a decision."
    )


def test_orders_for_a_waiting_impulse_are_refused(at_sixes, as_role):
    vq = at_sixes
    before = snapshot(vq)
    data = {"action": "conversion", "zones": ["france"], "attempts": "5"}
    response = post_orders(as_role("spain"), vq, data)
    assert_refused(response, 409, vq, before, "not saved")


# -- the GM's Virgin Queen edits ------------------------------------------------------------


def gm_post(client, campaign, key: str, data: dict):
    return client.post(reverse("campaign:edit", args=[campaign.pk, key]), data)


def leader_pk(campaign, name: str) -> int:
    return VqLeader.objects.get(campaign=campaign, name=name).pk


def test_the_dashboard_offers_every_virgin_queen_edit(vq, as_role):
    html = dashboard_with_edits(as_role("gm"), vq)
    for key in ("space", "units", "leader", "zone", "war", "markers"):
        assert f'id="edit-{key}"' in html, key
    assert "Coligny (the Protestant)" in html


def test_gm_edits_a_space(vq, as_role, vq_users):
    data = {
        "space": "bourges",
        "religion": "catholic",
        "controller": "protestant",
        "unrest": "on",
        "fortified": "on",
    }
    response = gm_post(as_role("gm"), vq, "space", data)
    assert response.status_code == 302
    assert response["Location"].endswith("#edit-space")
    bourges = space(vq, "bourges")
    assert (bourges.religion, bourges.unrest, bourges.fortified, bourges.besieged) == (
        "catholic",
        True,
        True,
        False,
    )
    assert controller(vq, "bourges") == "protestant"
    line = Event.objects.filter(campaign=vq, text__contains="Bourges: catholic").get()
    assert line.actor == vq_users["gm"]


def test_gm_sets_units(vq, as_role):
    client = as_role("gm")
    data = {"power": "spain", "kind": "regular", "space": "brussels", "count": "4"}
    assert gm_post(client, vq, "units", data).status_code == 302
    assert units(vq, "brussels") == {("spain", "regular"): 4}
    data = {"power": "france", "kind": "mercenary", "space": "lyon", "count": "0"}
    assert gm_post(client, vq, "units", data).status_code == 302
    assert units(vq, "lyon") == {("france", "regular"): 1}


def test_gm_moves_a_leader(vq, as_role):
    data = {"leader": leader_pk(vq, "William of Orange"), "space": "amsterdam", "can_enter": ""}
    assert gm_post(as_role("gm"), vq, "leader", data).status_code == 302
    orange = VqLeader.objects.select_related("area").get(pk=data["leader"])
    assert (orange.area.key, orange.can_enter) == ("amsterdam", False)


def test_gm_edits_a_zone(vq, as_role):
    data = {"zone": "netherlands", "capital": "amsterdam", "regulars": "3"}
    assert gm_post(as_role("gm"), vq, "zone", data).status_code == 302
    zone = VqZone.objects.select_related("capital").get(campaign=vq, key="netherlands")
    assert (zone.capital.key, zone.capital_on_turn_track, zone.regulars_available) == (
        "amsterdam",
        False,
        3,
    )
    data = {"zone": "france", "capital": "turn_track", "regulars": "6"}
    assert gm_post(as_role("gm"), vq, "zone", data).status_code == 302
    france = VqZone.objects.get(campaign=vq, key="france")
    assert (france.capital_id, france.capital_on_turn_track) == (None, True)


def test_gm_sets_war_and_peace(vq, as_role):
    client = as_role("gm")
    data = {"first": "protestant", "second": "spain", "at_war": "on"}
    assert gm_post(client, vq, "war", data).status_code == 302
    assert at_war(vq, "protestant", "spain")
    assert "the Protestant and Spain are at war" in dashboard_with_edits(client, vq)
    assert gm_post(client, vq, "war", {"first": "spain", "second": "protestant"}).status_code == 302
    assert not at_war(vq, "protestant", "spain")


def test_gm_sets_espionage_markers(vq, as_role):
    data = {"power": "england", "informant": "1", "assassination_used": "0", "cipher_key": "2"}
    assert gm_post(as_role("gm"), vq, "markers", data).status_code == 302
    england = VqPower.objects.get(power__campaign=vq, power__key="england")
    assert (england.informant, england.assassination_used, england.cipher_key) == (1, 0, 2)
    assert "1 Informant, 0 Assassination Used, 2 Cipher Key" in detail(as_role("spain"), vq)


BAD_EDITS = [
    ("space", lambda vq: {"space": "atlantis", "religion": "catholic"}, "atlantis"),
    ("space", lambda vq: {"space": "lyon", "religion": "orthodox"}, "orthodox"),
    (
        "space",
        lambda vq: {"space": "lyon", "religion": "catholic", "controller": "papacy"},
        "papacy",
    ),
    (
        "units",
        lambda vq: {"power": "spain", "kind": "regular", "space": "brussels", "count": "31"},
        "enter a whole number from 0 to 30.",
    ),
    (
        "units",
        lambda vq: {"power": "spain", "kind": "cavalry", "space": "brussels", "count": "1"},
        "cavalry",
    ),
    (
        "units",
        lambda vq: {"power": "spain", "kind": "regular", "space": "brussels", "count": "-1"},
        "enter a whole number from 0 to 30.",
    ),
    ("leader", lambda vq: {"leader": "99999", "space": "lyon"}, "99999"),
    (
        "leader",
        lambda vq: {"leader": leader_pk(vq, "Coligny"), "space": "atlantis"},
        "atlantis",
    ),
    ("zone", lambda vq: {"zone": "germany", "capital": "", "regulars": "31"}, "from 0 to 30"),
    ("zone", lambda vq: {"zone": "scotland", "capital": "", "regulars": "1"}, "scotland"),
    ("zone", lambda vq: {"zone": "france", "capital": "atlantis", "regulars": "1"}, "atlantis"),
    ("war", lambda vq: {"first": "france", "second": "france", "at_war": "on"}, "two different"),
    ("war", lambda vq: {"first": "france", "second": "papacy", "at_war": "on"}, "papacy"),
    (
        "markers",
        lambda vq: {
            "power": "spain",
            "informant": "10",
            "assassination_used": "0",
            "cipher_key": "0",
        },
        "enter a whole number from 0 to 9.",
    ),
    (
        "markers",
        lambda vq: {
            "power": "spain",
            "informant": "1.0",
            "assassination_used": "0",
            "cipher_key": "0",
        },
        "enter a whole number from 0 to 9.",
    ),
    (
        "markers",
        lambda vq: {
            "power": "papacy",
            "informant": "1",
            "assassination_used": "0",
            "cipher_key": "0",
        },
        "papacy",
    ),
]


@pytest.mark.parametrize(
    ("key", "data_of", "phrase"), BAD_EDITS, ids=[f"{k}-{p[:20]}" for k, _, p in BAD_EDITS]
)
def test_a_bad_gm_edit_is_refused_and_changes_nothing(vq, as_role, key, data_of, phrase):
    client = as_role("gm")
    before = snapshot(vq)
    response = gm_post(client, vq, key, data_of(vq))
    assert_refused(response, 422, vq, before, phrase)
    assert 'class="message error"' in response.content.decode()


@pytest.mark.parametrize("role", ["spain", "protestant", "observer"])
def test_only_the_gm_edits(vq, as_role, role):
    before = snapshot(vq)
    data = {"power": "spain", "kind": "regular", "space": "brussels", "count": "4"}
    response = gm_post(as_role(role), vq, "units", data)
    assert_refused(response, 403, vq, before)


def test_the_sequence_says_once_what_a_run_of_impulses_does(vq, as_role):
    html = detail(as_role("spain"), vq)
    sequence = re.search(r'<section id="sequence".*?</section>', html, re.S).group(0)
    steps = re.findall(r'<li class="step (\w+)"', sequence)
    assert len(steps) >= 6  # an impulse per power
    texts = re.findall(r"<p>([^<]+)</p>", sequence)
    assert len(texts) < len(steps) / 2, texts  # not one paragraph per impulse
    current = re.search(r'<li class="step current".*?</li>', sequence, re.S).group(0)
    assert "<p>" in current  # the open impulse always says what it does


@pytest.mark.parametrize(
    ("language", "conditions", "needs"),
    [
        ("en", "The conditions: (a) the space is in France", "a minor one on 4–5"),
        ("el", "Οι προϋποθέσεις: (a) ο χώρος βρίσκεται", "ελάσσων με 4–5"),
        ("ru", "Условия: (a) область находится в зоне", "малое на 4–5"),
    ],
)
def test_the_sixes_decision_states_its_conditions_and_the_log_its_thresholds(
    at_sixes, as_role, language, conditions, needs
):
    """The prompt stands alone (steps 4 and 5, conditions a to c spelled out) and the roll's
    log line says what each result needed, in the reader's language."""
    client = as_role("spain")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = detail(client, at_sixes)
    assert conditions in decision_panel(html)
    assert needs in html


def test_the_impulse_a_decision_opens_is_credited_to_nobody(at_sixes, as_role, vq_users):
    """Spain's last answer resolves its impulse (credited to Spain's player) and England's
    impulse opens: a phase opening, the system's, as when the GM or the worker resolves."""
    spain = as_role("spain")
    for answer in ({"die_1": "dijon"}, {"die_2": "lyon"}, {"unrest": ["lyon"]}):
        assert post_decision(spain, at_sixes, answer).status_code == 200
    at_sixes.refresh_from_db()
    assert at_sixes.phase.key == "impulse_england"
    lines = Event.objects.filter(campaign=at_sixes, kind=Event.Kind.PHASE).order_by("-pk")
    opened, resolved = lines[0], lines[1]
    assert opened.text.startswith("Turn 1: English impulse is open.")
    assert opened.actor is None
    line = re.search(
        r"<li[^>]*>(?:(?!</li>).)*English impulse is open\..*?</li>", detail(spain, at_sixes), re.S
    )
    assert line and 'class="actor"' not in line.group(0)
    assert resolved.text.endswith(" resolved.") and resolved.actor == vq_users["player"]


def test_unit_stacks_on_the_map_are_named_in_the_readers_language(vq, as_role):
    """Lyon's French stacks, as the log names them: "1 French regular" in each language."""
    html = (
        as_role("spain")
        .get(reverse("campaign:area_table", args=[vq.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        .content.decode()
    )
    with translation.override("ru"):
        regular = localized(stack_text(Units(None, "france", "regular", "lyon", 1)))
    assert regular in html and "French regular" not in html
