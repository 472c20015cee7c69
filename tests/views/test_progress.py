"""The campaign page's progress line: it polls the status endpoint, which answers 204
while nothing changed, the progress line alone when only the pace changed, and the page
(for HTMX to swap in place, without a reload) once the phase moved on."""

import pytest
from django.urls import reverse

from campaign.models import Phase
from campaign.play.services import resolve_open_phase
from tests.services.test_eia_phase_services import order

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# session, user, seat (with campaign and phase), readiness, the resolution queued
MAX_STATUS_QUERIES = 5


def status(client, campaign, phase=None, state="open", pace="open"):
    url = reverse("campaign:status", args=[campaign.pk])
    query = f"?phase={phase or campaign.phase_id}&status={state}&pace={pace}"
    return client.get(url + query, **HTMX)


def page(client, campaign) -> str:
    return client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()


def test_the_page_wraps_what_it_swaps_and_polls_with_its_phase(client_as, campaign):
    html = page(client_as("player"), campaign)
    assert '<div id="campaign-page">' in html
    assert f"?phase={campaign.phase_id}&amp;status=open&amp;pace=open" in html
    assert 'data-hx-trigger="every 15s"' in html and 'aria-live="polite"' in html
    assert "This page updates itself when" in html


def test_an_unchanged_phase_answers_204_in_a_few_queries(
    client_as, campaign, django_assert_max_num_queries
):
    client = client_as("player")
    client.get(reverse("campaign:detail", args=[campaign.pk]))  # the session is warm
    with django_assert_max_num_queries(MAX_STATUS_QUERIES):
        response = status(client, campaign)
    assert response.status_code == 204


def test_a_resolved_phase_answers_the_new_page_to_swap_in_place(client_as, campaign):
    client = client_as("player")
    shown = campaign.phase_id
    opened = resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=shown, actor=None)
    response = status(client, campaign, phase=shown)
    assert response.status_code == 200
    assert response["HX-Retarget"] == response["HX-Reselect"] == "#campaign-page"
    assert "HX-Refresh" not in response
    html = response.content.decode()
    assert '<div id="campaign-page">' in html
    assert f"?phase={opened.pk}&amp;status=open&amp;pace=open" in html  # the next poll's


def test_everyone_ready_in_a_campaign_that_resolves_itself_polls_fast(
    client_as,
    users,
    campaign,
    advance_to,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    advance_to(campaign, "revolt")
    client = client_as("player")
    assert status(client, campaign).status_code == 204
    order(campaign, "france", {"targets": []}, users["player"])
    with django_capture_on_commit_callbacks(execute=True):  # the resolution is queued
        order(campaign, "great_britain", {"targets": []}, users["other_player"])
    with django_assert_max_num_queries(MAX_STATUS_QUERIES):
        response = status(client, campaign)
    assert response.status_code == 200 and "HX-Retarget" not in response
    html = response.content.decode()
    assert html.startswith('<p id="progress"') and "campaign-page" not in html
    assert 'data-hx-trigger="every 2s"' in html and "pace=resolving" in html
    assert "is being resolved" in html
    assert status(client, campaign, pace="resolving").status_code == 204
    html = page(client, campaign)
    assert 'data-hx-trigger="every 2s"' in html and "is being resolved" in html


def test_every_order_in_without_a_resolution_queued_is_not_said_to_be_resolving(
    client_as, users, campaign, advance_to
):
    """Only a queued or running resolution is "being resolved" (the worker's queue says)."""
    advance_to(campaign, "revolt")
    order(campaign, "france", {"targets": []}, users["player"])
    order(campaign, "great_britain", {"targets": []}, users["other_player"])  # not committed
    client = client_as("player")
    assert status(client, campaign).status_code == 204
    assert "is being resolved" not in page(client, campaign)


def test_the_gm_resolving_polls_at_the_usual_pace(client_as, users, campaign, advance_to):
    campaign.auto_resolve = False
    campaign.save(update_fields=["auto_resolve"])
    advance_to(campaign, "revolt")
    order(campaign, "france", {"targets": []}, users["player"])
    order(campaign, "great_britain", {"targets": []}, users["other_player"])
    client = client_as("player")
    response = status(client, campaign)
    html = response.content.decode()
    assert response.status_code == 200 and "pace=with_gm-resolve" in html
    assert "waits for the GM to resolve it" in html
    assert status(client, campaign, pace="with_gm-resolve").status_code == 204
    html = page(client, campaign)
    assert 'data-hx-trigger="every 15s"' in html and "waits for the GM to resolve it" in html


def test_gm_entered_dice_say_that_the_phase_waits_for_them(client_as, users, campaign, advance_to):
    advance_to(campaign, "revolt")
    campaign.dice_mode = campaign.DiceMode.SCRIPTED
    campaign.save(update_fields=["dice_mode"])
    order(campaign, "france", {"targets": []}, users["player"])
    order(campaign, "great_britain", {"targets": []}, users["other_player"])
    html = page(client_as("player"), campaign)
    assert "waits for the GM to enter the dice" in html and "being resolved" not in html


def test_a_phase_waiting_for_a_decision_polls_fast(client_as, campaign):
    Phase.objects.filter(pk=campaign.phase_id).update(status=Phase.Status.WAITING)
    client = client_as("player")
    html = page(client, campaign)
    assert 'data-hx-trigger="every 2s"' in html and "waits for a decision" in html
    assert "status=waiting&amp;pace=waiting" in html
    assert status(client, campaign, state="waiting", pace="waiting").status_code == 204
    swapped = status(client, campaign, state="open")  # the page showed it open
    assert swapped["HX-Retarget"] == "#campaign-page"
