"""“Carry it out” on the GM dashboard: one POST makes the edit the order for the GM names,
as it says, logs it against the order, marks the line done and says so; with HTMX the
whole page reloads. An order that does not say all its edit needs opens the prefilled
form instead; a stale page changes nothing. “Edit it first” still opens the prefilled
form."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.urls import reverse

from campaign.models import Order
from campaign.play.gm_orders import _as_posted
from rules import gm_orders as gmo
from tests.factories import snapshot
from tests.views.test_orders_for_gm import (
    HTMX,
    carry_url,
    corps,
    france_orders,
    given,  # noqa: F401 (a fixture)
    page,
)

pytestmark = pytest.mark.django_db


def carry(client, campaign, order_: Order, *, digest=None, version=None, **extra):
    line = gmo.lines_of(order_.payload)[0]
    campaign.refresh_from_db()
    data = {
        "digest": digest or gmo.digest(line),
        "state_version": campaign.state_version if version is None else version,
    }
    url = reverse("campaign:carry_out", args=[campaign.pk, order_.pk, 1])
    return client.post(url, data, **extra)


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_dashboard_offers_one_step_and_edit_first(given, client_as):  # noqa: F811
    listing = page(client_as("gm"), given, "gm").split('id="gm-orders"', 1)[1]
    listing = listing.split("</section>", 1)[0]
    url = reverse("campaign:carry_out", args=[given.pk, france_orders(given).pk, 1])
    assert f'<form method="post" action="{url}" class="inline">' in listing
    assert "Carry it out</button>" in listing and "Edit it first</a>" in listing


def test_carry_it_out_makes_the_edit_at_once(given, client_as, users):  # noqa: F811
    gm = client_as("gm")
    response = carry(gm, given, france_orders(given))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:gm", args=[given.pk]) + "#gm-orders"
    assert corps(given, "I").area.key == "andalusia"
    assert gmo.lines_of(france_orders(given).payload)[0]["done"] is True
    line = given.events.filter(kind="gm").latest("pk").text
    assert line.startswith(f"GM {users['gm'].username}, carrying out France's order 1: ")
    (message,) = said(response)
    assert message == "Carried out France's order 1: France corps I in Andalusia: ready."


def test_with_htmx_the_whole_page_reloads(given, client_as):  # noqa: F811
    response = carry(client_as("gm"), given, france_orders(given), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("campaign:gm", args=[given.pk]) + "#gm-orders"
    assert corps(given, "I").area.key == "andalusia"


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stale_page_changes_nothing(given, client_as, htmx):  # noqa: F811
    gm, order_ = client_as("gm"), france_orders(given)
    before = snapshot(given)
    given.refresh_from_db()
    response = carry(gm, given, order_, version=given.state_version - 1, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 409)
    assert "nothing was done" in " ".join(said(response))
    assert snapshot(given) == before
    assert corps(given, "I").area.key != "andalusia"


def test_a_changed_order_is_not_carried_out(given, client_as):  # noqa: F811
    before = snapshot(given)
    response = carry(client_as("gm"), given, france_orders(given), digest="0")
    assert response.status_code == 409
    assert snapshot(given) == before


def test_done_twice_is_refused(given, client_as):  # noqa: F811
    gm, order_ = client_as("gm"), france_orders(given)
    assert carry(gm, given, order_).status_code == 302
    before = snapshot(given)
    response = carry(gm, given, order_)
    assert response.status_code == 409
    assert "already been carried out" in " ".join(said(response))
    assert snapshot(given) == before


@pytest.mark.parametrize("role", ["player", "observer"])
def test_only_the_gm_carries_it_out(given, client_as, role):  # noqa: F811
    response = carry(client_as(role), given, france_orders(given))
    assert response.status_code in (403, 404)
    assert corps(given, "I").area.key != "andalusia"


def test_an_incomplete_order_opens_the_prefilled_form(given, client_as, monkeypatch):  # noqa: F811
    from campaign.play import gm_orders

    real = gm_orders._as_posted
    monkeypatch.setattr(gm_orders, "_as_posted", lambda form: {**real(form), "area": ""})
    response = carry(client_as("gm"), given, france_orders(given))
    order_ = france_orders(given)
    assert response.status_code == 302
    assert response["Location"] == carry_url(given, order_.pk)
    assert "does not say all the edit needs" in " ".join(said(response))
    assert not gmo.lines_of(order_.payload)[0].get("done")
    assert client_as("gm").get(response["Location"]).status_code == 200


def test_a_zero_is_posted_as_a_value():
    """The prefilled form is posted as its page would post it: a 0 (a Pax Baltica block's
    supply trains) is a value, an unticked box and an empty field are not posted."""

    class Edit(forms.Form):
        trains = forms.IntegerField(initial=0)
        strength = forms.IntegerField(initial=3)
        besieged = forms.BooleanField(initial=False, required=False)
        note = forms.CharField(required=False)

    assert _as_posted(Edit()) == {"trains": 0, "strength": 3}
