"""In development, with COURIER_SITE_URL unset, the links in mail lead to the address
the site is served on (campaign.middleware.ServedOriginMiddleware), whatever its port; a
SITE_URL set explicitly (a deployment) is kept as it is."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from campaign.middleware import ServedOriginMiddleware
from campaign.models import Campaign
from campaign.notify import outgoing
from tests.factories import make_eia_campaign

pytestmark = pytest.mark.django_db
User = get_user_model()
CONSOLE = {"COURIER_EMAIL_CONSOLE": "1", "DJANGO_HTTPS": "0"}


def served(**request) -> str:
    """The mail links' address while a request to the lobby is answered."""
    seen = []

    def answer(_request):
        seen.append(outgoing.site_url("/campaigns/1/"))
        return HttpResponse()

    ServedOriginMiddleware(answer)(RequestFactory().get("/lobby/", **request))
    return seen[0]


def test_the_served_address_is_the_mail_links_address(settings):
    settings.SITE_URL_FROM_REQUESTS = True
    linked = served(HTTP_HOST="localhost:8080")
    assert linked == "http://localhost:8080/campaigns/1/"
    # only while that request is answered: no setting changed for the others
    assert django_settings.SITE_URL == "http://127.0.0.1:8000"
    assert outgoing.site_url("/x/") == "http://127.0.0.1:8000/x/"


def test_https_is_kept(settings):
    settings.SITE_URL_FROM_REQUESTS = True
    linked = served(HTTP_HOST="127.0.0.1:9000", secure=True)
    assert linked == "https://127.0.0.1:9000/campaigns/1/"


def test_an_explicit_site_url_is_kept(settings):
    settings.SITE_URL_FROM_REQUESTS = False
    settings.SITE_URL = "https://courier.example.org"
    Client().get("/lobby/", HTTP_HOST="localhost:8080")
    assert outgoing.site_url("/x/") == "https://courier.example.org/x/"


def test_a_host_not_allowed_teaches_nothing(settings):
    settings.SITE_URL_FROM_REQUESTS = True
    before = django_settings.SITE_URL
    response = Client().get("/lobby/", HTTP_HOST="evil.example.org")
    assert response.status_code == 400
    assert before == django_settings.SITE_URL


@pytest.mark.django_db(transaction=True)  # the mail is written as the request commits
def test_a_mail_sent_by_a_request_links_to_its_address(settings, monkeypatch):
    """Asking for a seat in the lobby mails the GM, a link to the dashboard in it."""
    settings.SITE_URL_FROM_REQUESTS = True
    sent = []

    class Deliver:
        enqueue = staticmethod(sent.append)

    monkeypatch.setattr(outgoing.delivery, "deliver_mail", Deliver)
    campaign = make_eia_campaign(areas=3)
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    gm = User.objects.create_user("gm", "gm@example.org")
    campaign.seats.filter(role="gm").update(user=gm)
    client = Client()
    client.force_login(User.objects.create_user("asker", "asker@example.org"))
    spain = campaign.powers.get(key="spain")
    url = reverse("campaign:lobby_ask", args=[campaign.pk, spain.pk])
    assert client.post(url, HTTP_HOST="localhost:8123").status_code == 302
    (mail,) = [m for m in sent if m["to"] == "gm@example.org"]
    assert "http://localhost:8123/" in mail["text"]
    assert "127.0.0.1:8000" not in mail["text"]


@pytest.mark.parametrize(
    "environ, learns, served",
    [
        ({"DJANGO_DEBUG": "1"}, True, True),
        ({"DJANGO_DEBUG": "1", "COURIER_SITE_URL": "https://c.example.org"}, False, True),
        (
            {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 20 + "Zq9x" * 10, **CONSOLE},
            False,
            False,
        ),
    ],
)
def test_only_development_without_a_site_url_learns_it(environ, learns, served):
    code = (
        "from django.conf import settings as s;"
        "print(s.SITE_URL_FROM_REQUESTS,"
        " 'campaign.middleware.ServedOriginMiddleware' in s.MIDDLEWARE)"
    )
    env = {k: v for k, v in os.environ.items() if k != "COURIER_SITE_URL"}
    env.update(environ, DJANGO_SETTINGS_MODULE="courier.settings")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(learns), str(served)]
