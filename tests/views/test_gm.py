"""The GM dashboard: readiness, resolving, dice, seats, options, and every state edit."""

import re
from collections import Counter
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from campaign.models import Area, Campaign, Event, PowerRelation, Seat
from rules.empires_in_arms.edits import EDITS
from rules.empires_in_arms.forms.edits import EDIT_FORMS
from rules.empires_in_arms.models import (
    Corps,
    Depot,
    EiaArea,
    EiaPowerStatus,
    GuerrillaStack,
    LetDown,
    NationalModifier,
    Revolt,
)
from tests.factories import dashboard_with_edits, make_eia_campaign, seat_users, snapshot

pytestmark = pytest.mark.django_db


def gm_post(client, campaign, name, data, *args):
    return client.post(reverse(f"campaign:{name}", args=[campaign.pk, *args]), data)


def last_gm_event(campaign):
    return Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).order_by("-id").first()


def test_dashboard_shows_who_is_ready(campaign, client_as):
    url = reverse("campaign:orders", args=[campaign.pk])
    client_as("player").post(url, {"phase": campaign.phase_id, "ready": "1"})
    client_as("other_player").post(url, {"phase": campaign.phase_id, "ready": "0"})
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert 'class="status-ready">ready' in html
    assert 'class="status-draft">draft' in html
    assert 'class="status-none">none yet' in html


def test_dashboard_shows_invitation_links_of_open_seats(campaign, client_as):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    token = campaign.seats.get(power__key="spain").invite_token
    assert f"/join/{token}/" in html
    assert campaign.seats.get(power__key="france").invite_token not in html


def test_advance_resolves_the_open_phase_and_opens_the_next(campaign, client_as):
    client = client_as("gm")
    response = gm_post(client, campaign, "advance", {"phase": campaign.phase_id})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    html = client.get(response["Location"]).content.decode()
    assert "Political phase · peace step resolved; Political phase · revolt step is open." in html


def test_scripted_dice_are_entered_by_the_gm(client):
    campaign = make_eia_campaign(dice_mode="scripted")
    users = seat_users(campaign)
    client.force_login(users["gm"])
    assert 'name="faces"' in client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    peace = gm_post(client, campaign, "advance", {"phase": campaign.phase_id, "faces": ""})
    assert peace.status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    player = Client()
    player.force_login(users["other_player"])
    player.post(
        reverse("campaign:orders", args=[campaign.pk]),
        {"phase": campaign.phase_id, "ready": "1", "targets": ["minor-0"]},
    )
    missing = gm_post(client, campaign, "advance", {"phase": campaign.phase_id, "faces": ""})
    assert missing.status_code == 422
    assert (
        "Not enough dice entered: 0 faces were entered; roll 1 (Great Britain incites a revolt "
        "in Minor 000) needs another."
    ) in missing.content.decode()
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    # Great Britain, Dominant (+1), NM +1 in a minor: 4 + 1 + 1 = 6, the revolt breaks out.
    done = gm_post(client, campaign, "advance", {"phase": campaign.phase_id, "faces": "4 3"})
    assert done.status_code == 302
    assert Revolt.objects.filter(campaign=campaign, area__key="minor-0", active=True).exists()
    log = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert 'href="/rules/empires_in_arms/#EIA-1">EIA-1</a>' in log


def test_gm_seats_a_user_by_name_and_empties_a_seat(campaign, client_as, users):
    client = client_as("gm")
    spain = campaign.seats.get(power__key="spain")
    data = {"username": users["outsider"].username}
    assert gm_post(client, campaign, "seat", data, spain.pk).status_code == 302
    spain.refresh_from_db()
    assert spain.user == users["outsider"]
    assert gm_post(client, campaign, "seat", {"username": ""}, spain.pk).status_code == 302
    spain.refresh_from_db()
    assert spain.user is None


def test_gm_sets_options_and_dice(campaign, client_as):
    data = {key: str(value) for key, value in campaign.rule_options.items()}
    data.update({"dice_mode": "scripted", "bad_roll": "modified_6", "attempt_pp_minimum": "1"})
    response = gm_post(client_as("gm"), campaign, "options", data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.dice_mode == Campaign.DiceMode.SCRIPTED
    assert campaign.rule_options["bad_roll"] == "modified_6"
    assert campaign.rule_options["attempt_pp_minimum"] == 1
    assert campaign.rule_options["six_extra_reduction"] is True


# -- every edit, logged with who ------------------------------------------------------


def edit(client, campaign, key, data):
    response = gm_post(client, campaign, "edit", data, key)
    assert response.status_code == 302, response.content.decode()[:3000]
    event = last_gm_event(campaign)
    assert event is not None and event.actor.username.startswith("gm-")
    assert event.text.startswith(f"GM {event.actor.username}: "), event.text
    return event


def refused_edit(client, campaign, key, data, *phrases):
    """The edit is refused (422) with the phrases in the page and nothing changed."""
    before = snapshot(campaign)
    response = gm_post(client, campaign, "edit", data, key)
    assert response.status_code == 422, response.content.decode()[:3000]
    html = response.content.decode()
    for phrase in phrases:
        assert phrase in html, phrase
    assert snapshot(campaign) == before


def test_edit_power(campaign, client_as):
    data = {
        "power": "france",
        "zone": "Fiasco",
        "political_points": "-2",
        "treasury": "44",
        "pays_bad_roll": "",
    }
    edit(client_as("gm"), campaign, "power", data)
    status = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="france")
    assert (status.political_points, status.treasury) == (-2, 44)
    assert (status.zone, status.pays_bad_roll) == ("Fiasco", False)


def test_a_power_or_area_without_its_row_gets_one_when_edited(campaign, client_as):
    """A row deleted in the admin (or left out of a hand-made archive) does not swallow
    the next change of its numbers."""
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="france").delete()
    EiaArea.objects.filter(area__campaign=campaign, area__key="old-castile").delete()
    data = {"power": "france", "zone": "Neutral", "political_points": "3", "treasury": "17"}
    edit(client_as("gm"), campaign, "power", data)
    edit(
        client_as("gm"),
        campaign,
        "area",
        {"area": "old-castile", "controller": "france", "ceded": "on"},
    )
    status = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="france")
    assert (status.political_points, status.treasury) == (3, 17)
    assert EiaArea.objects.get(area__campaign=campaign, area__key="old-castile").ceded


def test_edit_area_controller_and_ceded(campaign, client_as):
    data = {"area": "old-castile", "controller": "france", "ceded": "on"}
    event = edit(client_as("gm"), campaign, "area", data)
    area = EiaArea.objects.get(area__campaign=campaign, area__key="old-castile")
    assert area.area.controller.key == "france" and area.ceded
    assert "Old Castile" in event.text


def test_a_minor_becoming_neutral_ends_its_revolt(campaign, client_as):
    edit(client_as("gm"), campaign, "area", {"area": "palatinate", "controller": ""})
    assert Area.objects.get(campaign=campaign, key="palatinate").controller is None
    assert not Revolt.objects.filter(campaign=campaign, active=True).exists()


def test_edit_corps_add_move_flags_remove(campaign, client_as):
    client = client_as("gm")
    add = {"power": "austria", "area": "minor-1", "name": "Archduke", "minor": ""}
    edit(client, campaign, "corps_add", add)
    corps = Corps.objects.get(campaign=campaign, name="Archduke")
    move = {"corps": corps.pk, "area": "minor-3", "fought": "on", "besieging": "on"}
    edit(client, campaign, "corps", move)
    corps.refresh_from_db()
    assert (corps.area.key, corps.fought, corps.besieged, corps.besieging) == (
        "minor-3",
        True,
        False,
        True,
    )
    edit(client, campaign, "corps_remove", {"corps": corps.pk})
    assert not Corps.objects.filter(pk=corps.pk).exists()


def test_edit_relation(campaign, client_as):
    edit(client_as("gm"), campaign, "relation", {"a": "france", "b": "austria", "kind": "alliance"})
    assert PowerRelation.objects.filter(campaign=campaign, kind="alliance").count() == 1


def test_edit_revolt_capital_months(campaign, client_as):
    revolt = Revolt.objects.get(campaign=campaign)
    edit(client_as("gm"), campaign, "revolt", {"revolt": revolt.pk, "capital_held_months": "1"})
    revolt.refresh_from_db()
    assert revolt.capital_held_months == 1


def test_edit_spanish_field_loss(campaign, client_as):
    edit(client_as("gm"), campaign, "spanish_field_loss", {"area": "old-castile"})
    stack = GuerrillaStack.objects.get(campaign=campaign, area__key="old-castile")
    assert (stack.factors, stack.nationality.key, stack.revolt) == (1, "spain", False)


def test_edit_guerrilla_factors_and_besieged(campaign, client_as):
    stack = GuerrillaStack.objects.get(campaign=campaign)
    data = {"stack": stack.pk, "factors": "5", "besieged": "on"}
    event = edit(client_as("gm"), campaign, "guerrilla", data)
    stack.refresh_from_db()
    assert (stack.factors, stack.besieged) == (5, True)
    assert "5 Great Britain guerrilla factors in Palatinate: besieged" in event.text


def test_edit_depot_add_and_remove(campaign, client_as):
    client = client_as("gm")
    data = {"power": "france", "area": "palatinate", "garrison": "10"}
    edit(client, campaign, "depot_add", data)
    depot = Depot.objects.get(campaign=campaign)
    assert (depot.garrison, depot.port_city) == (10, False)
    edit(client, campaign, "depot_remove", {"depot": depot.pk})
    assert not Depot.objects.filter(campaign=campaign).exists()


def test_edit_power_with_political_points_far_below_zero(campaign, client_as):
    data = {"power": "russia", "zone": "Fiasco", "political_points": "-500", "treasury": "0"}
    edit(client_as("gm"), campaign, "power", data)
    russia = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="russia")
    assert russia.political_points == -500


def test_edit_militia_owed_to_spain(campaign, client_as):
    event = edit(client_as("gm"), campaign, "militia", {"power": "spain", "militia": "6"})
    assert EiaPowerStatus.objects.get(power__campaign=campaign, power__key="spain").militia_due == 6
    assert "Spain is owed 6 militia factors (EIA-12)" in event.text


def test_edit_national_modifiers(campaign, client_as):
    client = client_as("gm")
    event = edit(
        client, campaign, "national_modifier", {"area": "minor-1", "power": "france", "value": "-3"}
    )
    assert "Minor Country Chart: NM(France, Minor 001) = -3" in event.text
    edit(
        client,
        campaign,
        "national_modifier",
        {"area": "palatinate", "power": "great_britain", "value": "+4"},
    )
    rows = NationalModifier.objects.filter(campaign=campaign).values_list(
        "area__key", "power__key", "value"
    )
    chart = {(area, power): value for area, power, value in rows}
    assert chart[("minor-1", "france")] == -3
    assert chart[("palatinate", "great_britain")] == 4
    assert chart[("minor-0", "great_britain")] == 1


def test_edit_area_details(campaign, client_as):
    client = client_as("gm")
    data = {"area": "old-castile", "manpower": "5", "guerrilla_value": "4", "minor_status": ""}
    event = edit(client, campaign, "area_details", data)
    assert "Old Castile: manpower 5, guerrilla value 4" in event.text
    castile = EiaArea.objects.select_related("area").get(
        area__campaign=campaign, area__key="old-castile"
    )
    assert (castile.manpower, castile.guerrilla_value) == (5, 4)
    data = {"area": "palatinate", "manpower": "1", "minor_status": "conquered"}
    event = edit(client, campaign, "area_details", data)
    assert "Palatinate: manpower 1, conquered minor of France" in event.text
    palatinate = EiaArea.objects.select_related("area").get(
        area__campaign=campaign, area__key="palatinate"
    )
    assert (palatinate.manpower, palatinate.minor_status) == (1, "conquered")


def test_a_minor_changing_hands_loses_its_status_unless_given(campaign, client_as):
    client = client_as("gm")
    EiaArea.objects.filter(area__campaign=campaign, area__key="minor-1").update(
        minor_status="allied"
    )
    edit(client, campaign, "area", {"area": "minor-1", "controller": "prussia"})
    status = EiaArea.objects.get(area__campaign=campaign, area__key="minor-1")
    assert status.minor_status == ""
    data = {"area": "minor-1", "controller": "russia", "minor_status": "client"}
    event = edit(client, campaign, "area", data)
    status.refresh_from_db()
    assert status.minor_status == "client"
    assert "Minor 001: controlled by Russia, client state" in event.text


def test_edit_guerrillas_placed_and_removed(campaign, client_as):
    client = client_as("gm")
    revolt = {"kind": "revolt", "power": "great_britain", "area": "palatinate", "factors": "2"}
    event = edit(client, campaign, "guerrilla_add", revolt)
    assert "2 Great Britain revolt guerrilla factors placed in Palatinate" in event.text
    british = GuerrillaStack.objects.get(campaign=campaign, nationality__key="great_britain")
    assert british.factors == 5  # joined the 3 there
    spanish = {"kind": "spanish", "power": "spain", "area": "old-castile", "factors": "4"}
    edit(client, campaign, "guerrilla_add", spanish)
    stack = GuerrillaStack.objects.get(campaign=campaign, nationality__key="spain")
    assert (stack.area.key, stack.origin.key, stack.factors, stack.revolt) == (
        "old-castile",
        "old-castile",
        4,
        False,
    )
    event = edit(client, campaign, "guerrilla_remove", {"stack": stack.pk})
    assert "4 Spain guerrilla factors removed from Old Castile" in event.text
    assert not GuerrillaStack.objects.filter(pk=stack.pk).exists()


def test_edit_let_downs(campaign, client_as):
    data = {"power": "great_britain", "area": "minor-0", "count": "2"}
    event = edit(client_as("gm"), campaign, "let_downs", data)
    assert "Great Britain has let down 2 revolts in Minor 000" in event.text
    let_down = LetDown.objects.get(campaign=campaign, power__key="great_britain")
    assert (let_down.area.key, let_down.count) == ("minor-0", 2)


@pytest.mark.parametrize(
    ("key", "data", "phrase"),
    [
        (
            "power",
            {"power": "russia", "zone": "Fiasco", "political_points": "-1001", "treasury": "0"},
            "PP: enter a whole number from -1000 to 1000.",
        ),
        (
            "power",
            {"power": "russia", "zone": "Fiasco", "political_points": "9" * 5000, "treasury": "0"},
            "PP: enter a whole number from -1000 to 1000.",
        ),
        (
            "militia",
            {"power": "spain", "militia": "1000"},
            "Militia factors due: enter a whole number from 0 to 999.",
        ),
        ("militia", {"power": "spain", "militia": "٣"}, "Militia factors due: enter a whole"),
        ("militia", {"power": "narnia", "militia": "1"}, "There is no such power."),
        (
            "national_modifier",
            {"area": "minor-1", "power": "france", "value": "6"},
            "NM: enter a whole number from -5 to 5.",
        ),
        (
            "national_modifier",
            {"area": "minor-1", "power": "france", "value": "²"},
            "NM: enter a whole number from -5 to 5.",
        ),
        (
            "national_modifier",
            {"area": "old-castile", "power": "france", "value": "1"},
            "That is not a minor country on the chart.",
        ),
        (
            "area_details",
            {"area": "palatinate", "manpower": "2", "guerrilla_value": "3"},
            "Palatinate is not a Spanish province",
        ),
        (
            "area_details",
            {"area": "old-castile", "manpower": "21"},
            "Manpower: enter a whole number from 0 to 20.",
        ),
        (
            "area_details",
            {"area": "old-castile", "manpower": "3", "guerrilla_value": "7"},
            "Guerrilla value: enter a whole number from 1 to 6.",
        ),
        (
            "area_details",
            {
                "area": "old-castile",
                "manpower": "3",
                "guerrilla_value": "3",
                "minor_status": "allied",
            },
            "Old Castile is a province",
        ),
        (
            "area_details",
            {"area": "palatinate", "manpower": "2", "minor_status": "annexed"},
            "Choose allied minor, client state or conquered minor.",
        ),
        (
            "area",
            {"area": "old-castile", "controller": ""},
            "Old Castile is a province: it always has a controller",
        ),
        (
            "area",
            {"area": "old-castile", "controller": "spain", "ceded": "on"},
            "Old Castile is held by its home power, Spain",
        ),
        (
            "area",
            {"area": "minor-1", "controller": "", "minor_status": "client"},
            "Minor 001 is neutral",
        ),
        (
            "guerrilla",
            {"stack": "{stack}", "factors": "0"},
            "Factors: enter a whole number from 1 to 99.",
        ),
        (
            "guerrilla",
            {"stack": "{stack}", "factors": "11"},
            "Palatinate holds at most 10 guerrilla factors",
        ),
        (
            "guerrilla_add",
            {"kind": "revolt", "power": "austria", "area": "palatinate", "factors": "1"},
            "Austria sponsors no active revolt in Palatinate",
        ),
        (
            "guerrilla_add",
            {"kind": "revolt", "power": "great_britain", "area": "palatinate", "factors": "8"},
            "Palatinate holds at most 10 guerrilla factors",
        ),
        (
            "guerrilla_add",
            {"kind": "spanish", "power": "france", "area": "old-castile", "factors": "1"},
            "France has no guerrillas without a revolt",
        ),
        (
            "guerrilla_add",
            {"kind": "spanish", "power": "spain", "area": "minor-1", "factors": "1"},
            "Guerrillas appear only in an area in revolt",
        ),
        (
            "guerrilla_add",
            {"kind": "spanish", "power": "spain", "area": "andalusia", "factors": "1.5"},
            "Factors: enter a whole number from 1 to 99.",
        ),
        ("guerrilla_remove", {"stack": "999999"}, "There is no such guerrilla stack"),
        (
            "let_downs",
            {"power": "great_britain", "area": "andalusia", "count": "1"},
            "Let-downs count in minor countries only.",
        ),
        (
            "let_downs",
            {"power": "great_britain", "area": "minor-0", "count": "10"},
            "Revolts let down: enter a whole number from 0 to 9.",
        ),
    ],
)
def test_bad_new_edits_are_refused_and_change_nothing(campaign, client_as, key, data, phrase):
    stack = GuerrillaStack.objects.get(campaign=campaign)
    data = {name: value.replace("{stack}", str(stack.pk)) for name, value in data.items()}
    refused_edit(client_as("gm"), campaign, key, data, phrase)


def test_only_a_home_province_can_be_ceded(campaign, client_as):
    malta = Area.objects.create(
        campaign=campaign,
        key="malta",
        name="Malta",
        kind="province",
        controller=campaign.powers.get(key="great_britain"),
    )
    EiaArea.objects.create(area=malta)
    data = {"area": "malta", "controller": "france", "ceded": "on"}
    refused_edit(
        client_as("gm"), campaign, "area", data, "Malta belongs to no power", "cannot be ceded"
    )


def test_dashboard_offers_an_edit_form_for_every_edit(campaign, client_as):
    palatinate = campaign.areas.get(key="palatinate")
    Depot.objects.create(campaign=campaign, power=palatinate.controller, area=palatinate)
    html = dashboard_with_edits(client_as("gm"), campaign)
    assert set(EDIT_FORMS) == set(EDITS)
    for key in EDIT_FORMS:
        assert f'id="edit-{key}"' in html, key
        assert f'action="/campaigns/{campaign.pk}/gm/edit/{key}/"' in html, key


def test_area_details_left_blank_keep_their_values(campaign, client_as):
    EiaArea.objects.filter(area__campaign=campaign, area__key="palatinate").update(
        minor_status="allied"
    )
    client = client_as("gm")
    edit(client, campaign, "area_details", {"area": "palatinate", "manpower": "4"})
    palatinate = EiaArea.objects.select_related("area").get(
        area__campaign=campaign, area__key="palatinate"
    )
    assert (palatinate.manpower, palatinate.minor_status) == (4, "allied")
    edit(client, campaign, "area_details", {"area": "old-castile", "manpower": "2"})
    castile = EiaArea.objects.get(area__campaign=campaign, area__key="old-castile")
    assert castile.guerrilla_value == 3  # kept: a Spanish province always has one
    edit(client, campaign, "area_details", {"area": "palatinate", "minor_status": "none"})
    palatinate.refresh_from_db()
    assert (palatinate.manpower, palatinate.minor_status) == (4, "")


def test_the_map_table_shows_manpower_guerrilla_value_and_how_a_minor_is_held(campaign, client_as):
    EiaArea.objects.filter(area__campaign=campaign, area__key="minor-0").update(
        minor_status="client"
    )
    client = client_as("gm")
    html = dashboard_with_edits(client, campaign)
    html += client.get(reverse("campaign:area_table", args=[campaign.pk])).content.decode()
    assert "<li>Palatinate: Great Britain +1</li>" in html  # the chart as it stands
    assert re.search(
        r"Old Castile</a></th>\s*<td>province</td>.*?<td>3</td>\s*<td>3</td>", html, re.S
    )
    assert "client state" in html


def test_gm_edits_appear_in_the_log_with_who(campaign, client_as):
    client = client_as("gm")
    edit(client, campaign, "relation", {"a": "france", "b": "russia", "kind": "war"})
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "France and Russia are at war" in html
    assert f"— gm-{campaign.pk}" in html


def test_seats_of_the_gm_are_not_offered_for_reassignment(campaign, client_as):
    gm_seat = campaign.seats.get(role=Seat.Role.GM)
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert f"/gm/seats/{gm_seat.pk}/" not in html


def test_gm_starts_a_campaign_that_has_not_started(client):
    campaign = make_eia_campaign(start=False)
    client.force_login(seat_users(campaign)["gm"])
    dashboard = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert "Start the campaign" in dashboard
    response = client.post(reverse("campaign:start", args=[campaign.pk]))
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "peace"


def test_gm_sets_and_clears_the_deadline_everyone_sees(campaign, client_as):
    gm = client_as("gm")
    data = {"phase": campaign.phase_id, "deadline": "2999-03-01T18:30"}
    assert gm_post(gm, campaign, "deadline", data).status_code == 302
    campaign.phase.refresh_from_db()
    assert campaign.phase.deadline.year == 2999
    page = client_as("player").get(reverse("campaign:detail", args=[campaign.pk]))
    assert "until 1 Mar 2999 18:30" in page.content.decode()
    line = last_gm_event(campaign)
    assert line.text.endswith("sets the deadline: 1 March 2999, 18:30 UTC.")
    greek = client_as("player")
    greek.cookies["django_language"] = "el"
    page = greek.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "1 Μαρτίου 2999, 18:30 UTC" in page
    assert gm_post(gm, campaign, "deadline", {"phase": campaign.phase_id}).status_code == 302
    campaign.phase.refresh_from_db()
    assert campaign.phase.deadline is None


@pytest.mark.parametrize(
    "deadline, status", [("2001-01-01T10:00", 422), ("tomorrow", 422), ("2999-13-40T99:99", 422)]
)
def test_a_bad_deadline_is_refused_and_changes_nothing(campaign, client_as, deadline, status):
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "deadline": deadline}
    assert gm_post(client_as("gm"), campaign, "deadline", data).status_code == status
    assert snapshot(campaign) == before


def test_gm_opens_an_observer_seat_whose_link_seats_an_observer(campaign, client_as, users):
    from django.contrib.auth import get_user_model

    assert gm_post(client_as("gm"), campaign, "observer", {}).status_code == 302
    seat = campaign.seats.filter(role=Seat.Role.OBSERVER, user=None).get()
    page = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert seat.invite_token in page
    newcomer = get_user_model().objects.create_user("watcher", password="x-pass-123")
    client = Client()
    client.force_login(newcomer)
    client.post(reverse("campaign:join", args=[seat.invite_token]))
    seat.refresh_from_db()
    assert seat.user == newcomer
    assert client.get(reverse("campaign:detail", args=[campaign.pk])).status_code == 200


def test_no_id_stands_twice_on_the_dashboard(campaign, client_as):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert [key for key, count in ids.items() if count > 1] == []


def test_rollback_is_offered_only_once_a_phase_is_resolved(campaign, client_as, advance_to):
    url = reverse("campaign:gm", args=[campaign.pk])
    rollback = reverse("campaign:rollback", args=[campaign.pk])
    assert rollback not in client_as("gm").get(url).content.decode()
    advance_to(campaign, "revolt")
    assert rollback in client_as("gm").get(url).content.decode()


def advance_confirmation(client, campaign) -> str:
    html = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    return unescape(re.search(r'class="advance"\s+data-confirm="([^"]*)"', html).group(1))


def test_close_and_resolve_asks_first_naming_the_powers_not_ready(campaign, client_as):
    asked = advance_confirmation(client_as("gm"), campaign)
    assert asked.startswith("Close Political phase · peace step now and resolve it?")
    assert asked.endswith(" Not marked ready yet: Great Britain.")  # the one that owes
    url = reverse("campaign:orders", args=[campaign.pk])
    client_as("other_player").post(url, {"phase": campaign.phase_id, "ready": "1"})
    asked = advance_confirmation(client_as("gm"), campaign)
    assert asked.endswith("the dice are rolled.")


def test_the_rollback_form_says_what_it_undoes_the_gms_edits_of_the_state_included(
    campaign, client_as, advance_to
):
    advance_to(campaign, "revolt")
    gm, url = client_as("gm"), reverse("campaign:gm", args=[campaign.pk])
    html = gm.get(url).content.decode()
    assert "Rolling back undoes the resolution of Political phase · peace step" in html
    assert "The GM has not edited the state since Political phase · revolt step opened" in html
    power = {"power": "france", "zone": "Fiasco", "political_points": "-2", "treasury": "44"}
    first = edit(gm, campaign, "power", power)
    second = edit(gm, campaign, "power", {**power, "treasury": "45"})
    gm_post(gm, campaign, "clock", {"phase": campaign.phase_id, "action": "extend", "hours": "2"})
    html = gm.get(url).content.decode()
    assert "It also undoes the GM's 2 edits of the state made since" in html
    undone = re.search(r'<ul class="undone">(.*?)</ul>', html, re.S).group(1)
    assert re.findall(r"<li>(.*?)</li>", undone) == [escape(first.text), escape(second.text)]
    greek = client_as("gm")
    greek.cookies["django_language"] = "el"
    html = greek.get(url).content.decode()
    assert "Rolling back" not in html and "It also undoes" not in html


def test_each_free_seats_invitation_has_a_copy_button(campaign, client_as):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    button = r'class="invite">\s*<button type="button" class="secondary copy" hidden'
    links = re.findall(button + r' data-copy="([^"]+)"', html)
    assert links and all("/join/" in link for link in links)
