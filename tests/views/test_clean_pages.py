"""Every page of the demo campaigns passes the checks the W3C validator made fail: no id
stands twice on a page (a form's field ids, a panel loaded into the dashboard), a
<time datetime> has no fractions of a second, and no svg takes another element's role.

The pages are those of `manage.py demo` (one campaign of each ruleset, every seat taken)
after two resolved phases, as the GM and as every power's player read them: the list,
the new campaign form, the campaign page, its map table and status, an area's panel,
the rules, the timeline, the press, the account, the lobby, each resolved phase's
history and verify pages, and for the GM the dashboard with each edit panel's forms
loaded into it; a Virgin Queen decision awaited; and the pages read before logging in.
"""

import io
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Phase, Seat
from campaign.play.services import resolve_open_phase
from tests.views.test_vq_views import as_role, start_spain_conversion, vq, vq_users  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.long]


def problems(html: str) -> list[str]:
    """What the validator would refuse in ``html`` among the checks above."""
    found = [
        f"id “{key}” {count} times"
        for key, count in Counter(re.findall(r'\sid="([^"]+)"', html)).items()
        if count > 1
    ]
    found += [f"datetime “{value}”" for value in re.findall(r'datetime="([^"]*\.\d[^"]*)"', html)]
    found += [f"svg role “{role}”" for role in re.findall(r'<svg\b[^>]*\srole="([^"]+)"', html)]
    return [problem for problem in found if "role “img”" not in problem]


def test_the_checks_find_what_they_look_for():
    html = (
        '<p id="a"></p><input id="a"><time datetime="2026-01-02T03:04:05.123456+00:00">'
        '<svg role="group"></svg><svg role="img"></svg><div id="b"></div>'
    )
    assert problems(html) == [
        "id “a” 2 times",
        "datetime “2026-01-02T03:04:05.123456+00:00”",
        "svg role “group”",
    ]


def demo_campaign(ruleset: str) -> Campaign:
    """The demo campaign of ``ruleset``, two phases resolved (seeded dice, no orders)."""
    call_command("demo", stdout=io.StringIO())
    gm = get_user_model().objects.get(username="gm")
    campaign = Campaign.objects.get(ruleset=ruleset, seats__user=gm)
    for _ in range(2):
        campaign.refresh_from_db()
        resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=gm)
    campaign.refresh_from_db()
    return campaign


def pages(campaign: Campaign) -> list[str]:
    pk = campaign.pk
    urls = [
        reverse("campaign:list"),
        reverse("campaign:new"),
        reverse("campaign:lobby"),
        reverse("campaign:preferences"),
        reverse("campaign:rules", args=[campaign.ruleset]),
        reverse("campaign:detail", args=[pk]),
        reverse("campaign:area_table", args=[pk]),
        reverse("campaign:status", args=[pk]),
        reverse("campaign:timeline", args=[pk]),
        reverse("campaign:press", args=[pk]),
        reverse("campaign:press_channel", args=[pk, "public"]),
        *(reverse("campaign:area", args=[pk, a.key]) for a in campaign.areas.all()[:2]),
    ]
    for phase in Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED):
        urls.append(reverse("campaign:history", args=[pk, phase.pk]))
        urls.append(reverse("campaign:verify", args=[pk, phase.pk]))
    return urls


def dashboard_with_panels(client: Client, campaign: Campaign) -> str:
    """The dashboard as a GM who opened every edit panel has it (panels load into it)."""
    html = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    panels = "".join(
        client.get(
            reverse("campaign:edit_panel", args=[campaign.pk, key]), HTTP_HX_REQUEST="true"
        ).content.decode()
        for key in campaign.rules.hooks.edit_forms
    )
    return html.replace("</main>", f"{panels}</main>")


def rendered_pages(campaign: Campaign) -> Iterator[tuple[str, str, str]]:
    """(reader, url, html) of every page of ``campaign`` as the GM and each seated player
    read it, the GM's dashboard with every edit panel loaded into it."""
    seats = campaign.seats.exclude(user=None).select_related("user", "power")
    for seat in seats:
        client = Client()
        client.force_login(seat.user)
        reader = "GM" if seat.role == Seat.Role.GM else seat.power.key
        for url in pages(campaign):
            response = client.get(url)
            assert response.status_code == 200, (reader, url, response.status_code)
            yield reader, url, response.content.decode()
        if seat.role == Seat.Role.GM:
            url = reverse("campaign:gm", args=[campaign.pk])
            yield reader, url, dashboard_with_panels(client, campaign)


def decision_pages(campaign: Campaign, client_of) -> Iterator[tuple[str, str, str]]:
    """(reader, url, html) of the pages of a Virgin Queen decision awaited: Spain's 6s of a
    conversion in France, which Spain or the GM answers (start_spain_conversion);
    ``client_of(role)`` is a client logged in as that role (test_vq_views.as_role)."""
    url = reverse("campaign:detail", args=[campaign.pk])
    for role in ("spain", "protestant", "gm"):
        yield role, url, client_of(role).get(url).content.decode()
    gm = client_of("gm")
    yield "gm", reverse("campaign:gm", args=[campaign.pk]), dashboard_with_panels(gm, campaign)


def pages_before_login() -> Iterator[tuple[str, str, str]]:
    """(reader, url, html) of the pages read before logging in (after ``manage.py demo``)."""
    token = Seat.objects.filter(role=Seat.Role.PLAYER).first().invite_token
    urls = [
        reverse("login"),
        reverse("password_reset"),
        reverse("campaign:signup"),
        reverse("campaign:join", args=[token]),
        reverse("campaign:rules", args=["empires_in_arms"]),
    ]
    for url in urls:
        response = Client().get(url, follow=True)
        assert response.status_code == 200, url
        yield "anonymous", url, response.content.decode()


@pytest.mark.parametrize("ruleset", ["empires_in_arms", "pax_baltica", "virgin_queen"])
def test_no_page_of_a_demo_campaign_repeats_an_id_or_writes_a_time_the_validator_refuses(
    ruleset,
):
    found = [
        (reader, url, problem)
        for reader, url, html in rendered_pages(demo_campaign(ruleset))
        for problem in problems(html)
    ]
    assert found == []


def test_the_pages_of_a_decision_awaited_repeat_no_id(vq, as_role, monkeypatch):  # noqa: F811
    start_spain_conversion(vq, as_role, monkeypatch)
    found = []
    for reader, url, html in decision_pages(vq, as_role):
        assert reader != "spain" or '<section id="decision"' in html
        found += [(reader, url, problem) for problem in problems(html)]
    assert found == []


def test_the_pages_before_logging_in_repeat_no_id():
    call_command("demo", stdout=io.StringIO())
    found = [(url, p) for _, url, html in pages_before_login() for p in problems(html)]
    assert found == []
