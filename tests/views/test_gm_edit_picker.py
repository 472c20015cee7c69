"""The GM dashboard's edit panels load on demand; a long list in one is a picker, and the
picked item's form loads on demand too."""

import pytest
from django.urls import reverse

from rules.empires_in_arms.models import Corps, EiaPowerStatus
from tests.factories import dashboard_with_edits, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def short_lists(monkeypatch):
    """Every list longer than one item gets a picker (the campaign has 2 corps, 7 powers)."""
    monkeypatch.setattr("campaign.views.edit_panels.EDIT_PICKER_FROM", 1)


def item_url(campaign, key: str, item: str = "") -> str:
    url = reverse("campaign:edit_item", args=[campaign.pk, key])
    return f"{url}?item={item}" if item else url


def panel_url(campaign, key: str) -> str:
    return reverse("campaign:edit_panel", args=[campaign.pk, key])


def test_the_dashboard_sends_no_edit_form_until_a_panel_is_opened(campaign, client_as):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert f'action="{reverse("campaign:edit", args=[campaign.pk, "corps"])}"' not in html
    assert f'data-hx-get="{panel_url(campaign, "corps")}" data-hx-trigger="toggle once"' in html
    assert f'href="{panel_url(campaign, "corps")}#edit-corps"' in html  # without JavaScript


def test_an_opened_panel_brings_its_forms_alone_with_htmx(campaign, client_as):
    response = client_as("gm").get(panel_url(campaign, "corps"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.count(f'action="{reverse("campaign:edit", args=[campaign.pk, "corps"])}"') == 2


def test_without_htmx_the_dashboard_opens_with_that_panel(campaign, client_as):
    html = client_as("gm").get(panel_url(campaign, "corps")).content.decode()
    assert '<details class="edit-panel" id="edit-corps" open>' in html
    assert html.count(f'action="{reverse("campaign:edit", args=[campaign.pk, "corps"])}"') == 2
    assert f'action="{reverse("campaign:edit", args=[campaign.pk, "power"])}"' not in html


@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 404)])
def test_only_the_gm_opens_a_panel(campaign, client_as, role, status):
    assert client_as(role).get(panel_url(campaign, "corps")).status_code == status


def test_an_unknown_panel_is_404(campaign, client_as):
    assert client_as("gm").get(panel_url(campaign, "nope")).status_code == 404


def test_a_short_list_keeps_a_form_per_item(campaign, client_as):
    html = dashboard_with_edits(client_as("gm"), campaign)
    edit_corps = reverse("campaign:edit", args=[campaign.pk, "corps"])
    assert html.count(f'action="{edit_corps}"') == 2
    assert 'class="edit-row edit-picker"' not in html


def test_a_long_list_is_a_picker_without_its_forms(campaign, client_as, short_lists):
    html = dashboard_with_edits(client_as("gm"), campaign)
    edit_corps = reverse("campaign:edit", args=[campaign.pk, "corps"])
    assert f'action="{edit_corps}"' not in html
    assert f'data-hx-get="{item_url(campaign, "corps")}"' in html
    for corps in Corps.objects.filter(campaign=campaign):
        assert f'<option value="{corps.pk}">' in html


def test_the_picked_item_form_comes_prefilled_alone_with_htmx(campaign, client_as, short_lists):
    spain = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="spain")
    spain.zone = "Dominant"
    spain.save()
    response = client_as("gm").get(item_url(campaign, "power", "spain"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.count("<form") == 1
    assert 'value="Dominant" selected' in html
    assert f'action="{reverse("campaign:edit", args=[campaign.pk, "power"])}"' in html


def test_without_htmx_the_dashboard_opens_with_that_form(campaign, client_as, short_lists):
    html = client_as("gm").get(item_url(campaign, "power", "spain")).content.decode()
    assert '<details class="edit-panel" id="edit-power" open>' in html
    assert 'id="id_PowerForm_spain_zone"' in html
    assert "id_PowerForm_france_zone" not in html


@pytest.mark.parametrize(
    "key, item, status",
    [("power", "atlantis", 404), ("power", "", 404), ("nope", "spain", 404)],
)
def test_an_unknown_item_or_edit_is_404_and_changes_nothing(campaign, client_as, key, item, status):
    before = snapshot(campaign)
    assert client_as("gm").get(item_url(campaign, key, item)).status_code == status
    assert snapshot(campaign) == before


@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 404)])
def test_only_the_gm_loads_an_edit_form(campaign, client_as, role, status):
    assert client_as(role).get(item_url(campaign, "power", "spain")).status_code == status


def test_a_post_request_is_refused(campaign, client_as):
    assert client_as("gm").post(item_url(campaign, "power", "spain")).status_code == 405
