"""A signed-out reader's HTMX request sends the whole page to the login page, and back to
the page they were on after it, instead of a login form swapped into a panel."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def login_to(path: str) -> str:
    return f"{reverse('login')}?next={path}"


def test_a_panel_loaded_after_the_session_ended_reloads_the_page_at_the_login(campaign, client_as):
    page = reverse("campaign:detail", args=[campaign.pk])
    panel = reverse("campaign:press", args=[campaign.pk]) + "?part=panel"
    current = {"HTTP_HX_CURRENT_URL": f"http://testserver{page}"}
    response = client_as("anonymous").get(panel, **HTMX, **current)
    assert response.status_code == 200 and "<form" not in response.content.decode()
    assert response["HX-Redirect"] == login_to(page)


def test_an_htmx_post_after_the_session_ended_is_sent_to_the_login_too(campaign, client_as):
    orders = reverse("campaign:orders", args=[campaign.pk])
    response = client_as("anonymous").post(orders, {"ready": "1"}, **HTMX)
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_a_page_from_another_site_is_not_where_the_login_sends_back(campaign, client_as):
    panel = reverse("campaign:press", args=[campaign.pk]) + "?part=panel"
    current = {"HTTP_HX_CURRENT_URL": "https://elsewhere.example/campaigns/1/"}
    response = client_as("anonymous").get(panel, **HTMX, **current)
    assert "elsewhere" not in response["HX-Redirect"]
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_without_htmx_the_login_is_a_redirect_as_before(campaign, client_as):
    page = reverse("campaign:detail", args=[campaign.pk])
    response = client_as("anonymous").get(page)
    assert response.status_code == 302 and response.url == login_to(page)


def test_an_htmx_redirect_elsewhere_is_left_alone(campaign, client_as):
    response = client_as("gm").post(
        reverse("campaign:advance", args=[campaign.pk]), {"phase": campaign.phase_id}, **HTMX
    )
    assert response.status_code == 302 and "HX-Redirect" not in response
