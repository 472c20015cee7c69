"""After a phase resolves, a seated player first reads what happened to their power
(its own lines of that phase, rolls first, as the log redacts them), then the log."""

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Event, Power
from campaign.play import services
from tests.factories import make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import CyclingDice, order, resolve
from tests.views.test_pb_hidden_information import FACES, block_ids

pytestmark = pytest.mark.django_db
MAX_PLAYER_PAGE_QUERIES = 15  # the summary shares the log's query
# and when the cache has not got it yet, when its GMs last acted (campaign/people/gm_team.py)
MAX_FIRST_PLAYER_PAGE_QUERIES = MAX_PLAYER_PAGE_QUERIES + 1


def summary_of(html: str) -> str:
    """The summary panel's HTML ("" when there is none)."""
    start = html.find('<section id="summary"')
    return unescape(html[start : html.index("</section>", start)]) if start >= 0 else ""


def page(client, campaign) -> str:
    return client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()


@pytest.fixture
def revolt_resolved(campaign, users, advance_to):
    """The revolt step resolved: France and Great Britain each incited a revolt."""
    advance_to(campaign, "revolt")
    order(campaign, "france", {"targets": ["minor-1"]}, users["player"])
    order(campaign, "great_britain", {"targets": ["minor-0"]}, users["other_player"])
    resolve(campaign)
    return campaign


def test_france_reads_its_own_rolls_first_with_their_rules(client_as, revolt_resolved):
    html = page(client_as("player"), revolt_resolved)
    panel = summary_of(html)
    assert "What happened to you in Political phase · revolt step (January 1805)" in panel
    assert html.index('id="summary"') < html.index('id="log"')
    assert "France incites a revolt in Minor 001" in panel
    assert "Great Britain incites" not in panel
    rolls = Event.objects.filter(phase__key="revolt", power__key="france", kind=Event.Kind.ROLL)
    rolls = rolls.order_by("id")
    first = panel.index('<li class="kind-')
    assert panel.index(rolls[0].text, first) < panel.index("</li>", first)  # a roll first
    assert f'href="/rules/empires_in_arms/#{rolls[0].rule}"' in panel


def test_a_power_nothing_happened_to_is_told_so(client_as, campaign, advance_to):
    advance_to(campaign, "revolt")
    Event.objects.filter(phase__key="peace", power__key="france").delete()
    panel = summary_of(page(client_as("player"), campaign))
    assert "What happened to you in Political phase · peace step" in panel
    assert "Nothing happened to France." in panel


def test_the_gm_and_observers_see_no_summary(client_as, revolt_resolved):
    for role in ("gm", "observer"):
        assert not summary_of(page(client_as(role), revolt_resolved)), role


def test_no_summary_before_a_phase_is_resolved(client_as, campaign):
    assert not summary_of(page(client_as("player"), campaign))


def test_the_players_page_stays_within_its_queries(
    client_as, revolt_resolved, django_assert_max_num_queries
):
    client = client_as("player")
    with django_assert_max_num_queries(MAX_FIRST_PLAYER_PAGE_QUERIES):
        page(client, revolt_resolved)
    with django_assert_max_num_queries(MAX_PLAYER_PAGE_QUERIES):
        html = page(client, revolt_resolved)
    assert summary_of(html)


def test_the_summary_keeps_lines_older_than_the_newest_of_the_log(
    client_as, revolt_resolved, monkeypatch
):
    """The log shows the newest lines only; the summary still has the whole phase's."""
    full = summary_of(page(client_as("player"), revolt_resolved))
    monkeypatch.setattr("campaign.views.context.LOG_LIMIT", 2)
    html = page(client_as("player"), revolt_resolved)
    assert summary_of(html) == full and "EIA-1" in full
    assert html.count('class="kind-') <= 2 + full.count('class="kind-')


def test_a_swedish_player_never_reads_russian_secrets_in_the_summary(monkeypatch):
    """The siege of Narva: Russia reads its own hits in full, Sweden neither Menshikov's
    name nor a line of Sweden's hidden from Sweden (with or without a redacted text)."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice(FACES))
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    ids = block_ids(campaign)
    resolve(campaign, users["gm"])  # recruitment
    order(campaign, "russia", {"sieges": [{"territory": "narva", "blocks": [ids["Menshikov"]]}]})
    resolve(campaign, users["gm"])  # actions
    resolve(campaign, users["gm"])  # the siege of Narva
    siege = campaign.phases.get(key="siege")
    sweden = Power.objects.get(campaign=campaign, key="sweden")
    coalition = ["russia", "saxony", "denmark"]
    for text, redacted in (
        ("Menshikov spies on Stockholm.", ""),
        ("Sheremetev strikes the Swedish garrison.", "A Coalition block strikes."),
    ):
        Event.objects.create(
            campaign=campaign,
            phase=siege,
            turn=siege.turn,
            kind=Event.Kind.RULE,
            text=text,
            audience=coalition,
            redacted=redacted,
            power=sweden,
        )
    pages = {}
    for role in ("player", "other_player"):
        client = Client()
        client.force_login(users[role])
        pages[role] = summary_of(page(client, campaign))
    assert "What happened to you in Battles and sieges" in pages["player"]
    assert "Sweden's RP level: 20 → 16 (Narva)." in pages["player"]
    assert "A Coalition block strikes." in pages["player"]
    for secret in ("Menshikov", "Sheremetev", "Garrison of Narva (C1, 2 dice): 1 6, hits"):
        assert secret not in pages["player"], secret
    assert "Menshikov 3 → 2" in pages["other_player"]
    assert "Sweden's RP level: 20 → 16" not in pages["other_player"]
