"""The home page's "Needs you" list (campaign/people/home.py): what needs the reader first, the
most urgent first, each with a link to where to act: a decision asked of their power,
orders their power owes (with the deadline in their time zone), and for a GM a phase only
they close, dice they must enter, a decision for a power without a player, requests for a
seat, orders for the GM to carry out. A phase waiting for someone else says whose."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Order, Phase, Profile, Seat, SeatRequest
from campaign.people import home
from tests.factories import make_eia_campaign, make_vq_campaign, seat_users
from tests.views.test_vq_views import SEEDED_LYON, advance, post_orders, stage, to_phase

pytestmark = pytest.mark.django_db
User = get_user_model()
HOME = reverse("campaign:list")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seat(campaign, user, power: str | None = None, role: str = "player") -> Seat:
    found = campaign.seats.get(power__key=power) if power else campaign.seats.get(role=role)
    found.user = user
    found.save(update_fields=["user"])
    return found


def named(name: str, **kwargs) -> Campaign:
    """An Empires in Arms campaign in its peace step, where only Great Britain owes."""
    campaign = make_eia_campaign(areas=3, **kwargs)
    Campaign.objects.filter(pk=campaign.pk).update(name=name)
    campaign.refresh_from_db()
    return campaign


def set_deadline(campaign, hours: float) -> None:
    Phase.objects.filter(pk=campaign.phase_id).update(
        deadline=timezone.now() + timedelta(hours=hours)
    )


def mark_ready(campaign, key: str, payload: dict | None = None) -> Order:
    power = campaign.powers.get(key=key)
    return Order.objects.create(
        campaign=campaign,
        phase_id=campaign.phase_id,
        power=power,
        ready=True,
        payload=payload or {},
    )


def needs_panel(html: str) -> str:
    found = re.search(r'<section id="needs-you".*?</section>', html, re.S)
    return found.group(0) if found else ""


def need_rows(html: str) -> list[tuple[str, str, str]]:
    """(kind, link, text) of each row of the "Needs you" list, in order."""
    rows = re.findall(
        r'<li data-need="([a-z_]+)"><strong>[^<]*</strong> · <a href="([^"]+)">([^<]*)</a>',
        needs_panel(html),
    )
    return [(kind, link, text.replace("&#x27;", "'")) for kind, link, text in rows]


def standing(response, name: str) -> str:
    (entry,) = [e for e in response.context["entries"] if e.campaign.name == name]
    return entry.standing


@pytest.fixture
def reader(db):
    return User.objects.create_user("reader", "reader@example.org")


# -- a decision ----------------------------------------------------------------------------


@pytest.fixture
def revolt(db, monkeypatch):
    """A GM-driven Virgin Queen campaign whose Protestant revolt in Lyon waits for France's
    decision (where the French regular's survivors are displaced); "player" plays the
    Protestant, "other_player" France."""
    campaign = make_vq_campaign(auto_resolve=False)
    users = seat_users(campaign, "protestant", "france")
    to_phase(campaign, "impulse_protestant")
    order = {"action": "revolt", "target": "lyon", "cp": "3"}
    assert post_orders(client_for(users["player"]), campaign, order).status_code == 200
    assert advance(client_for(users["gm"]), campaign, SEEDED_LYON, monkeypatch).status_code == 302
    assert stage(campaign) == ("revolt", "displace", "france")
    return campaign, users


def test_the_player_asked_a_decision_is_told_first_and_the_others_whose_it_is(revolt):
    campaign, users = revolt
    detail = reverse("campaign:detail", args=[campaign.pk])
    response = client_for(users["other_player"]).get(HOME)
    assert need_rows(response.content.decode()) == [
        ("decision", f"{detail}#decision", "A decision is asked of you, as France.")
    ]
    assert standing(response, campaign.name) == "Under way: it waits for your decision"
    for role in ("player", "gm", "observer"):
        response = client_for(users[role]).get(HOME)
        assert needs_panel(response.content.decode()) == "", role
        assert standing(response, campaign.name) == "Under way: it waits for France's decision"
    assert "it waits for France&#x27;s decision" in response.content.decode()


def test_the_gm_decides_for_a_power_without_a_player(revolt):
    campaign, users = revolt
    Seat.objects.filter(campaign=campaign, power__key="france").update(user=None)
    response = client_for(users["gm"]).get(HOME)
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(response.content.decode()) == [
        (
            "decide_for",
            f"{dashboard}#decision",
            "A decision waits for France, which has no player here: decide for it.",
        )
    ]
    assert standing(response, campaign.name) == "Under way: it waits for your decision for France"


# -- orders --------------------------------------------------------------------------------


def test_orders_owed_come_with_their_deadline_in_the_readers_time_zone(reader):
    campaign = named("Tokyo time")
    seat(campaign, reader, "great_britain")
    Profile.objects.create(user=reader, time_zone="Asia/Tokyo")
    deadline = timezone.now().replace(year=2031, month=3, day=1, hour=12, minute=0)
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)
    html = client_for(reader).get(HOME).content.decode()
    detail = reverse("campaign:detail", args=[campaign.pk])
    assert need_rows(html) == [
        ("orders", f"{detail}#orders", "Your orders for Great Britain are awaited: not ready.")
    ]
    assert "Deadline:" in needs_panel(html)
    assert "1 Mar 2031 21:00" in needs_panel(html)  # 12:00 UTC
    assert 'datetime="2031-03-01T21:00:' in needs_panel(html)


def test_nothing_to_do_means_no_needs_and_the_row_says_whose_orders_it_waits_for(reader):
    campaign = named("Quiet")
    seat(campaign, reader, "france")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    seat(campaign, User.objects.create_user("russian"), "russia")
    Phase.objects.filter(pk=campaign.phase_id).update(owing=["great_britain", "russia"])
    response = client_for(reader).get(HOME)
    html = response.content.decode()
    assert 'id="needs-you"' not in html
    assert standing(response, "Quiet") == "It waits for Great Britain and Russia's orders"
    assert "It waits for Great Britain and Russia&#x27;s orders" in html
    mark_ready(campaign, "russia")
    response = client_for(reader).get(HOME)
    assert standing(response, "Quiet") == "It waits for Great Britain's orders"
    mark_ready(campaign, "great_britain")
    assert standing(client_for(reader).get(HOME), "Quiet") == "It waits for the GM"


def test_a_ready_player_reads_whom_the_phase_still_waits_for(reader):
    campaign = named("Half ready")
    seat(campaign, reader, "great_britain")
    seat(campaign, User.objects.create_user("russian"), "russia")
    Phase.objects.filter(pk=campaign.phase_id).update(owing=["great_britain", "russia"])
    mark_ready(campaign, "great_britain")
    response = client_for(reader).get(HOME)
    assert 'id="needs-you"' not in response.content.decode()
    assert standing(response, "Half ready") == "Ready: it waits for Russia's orders"


# -- the GM --------------------------------------------------------------------------------


def test_the_gm_is_told_of_a_request_for_a_seat(reader):
    campaign = named("Open table")
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    seat(campaign, reader, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    SeatRequest.objects.create(
        campaign=campaign,
        power=campaign.powers.get(key="spain"),
        user=User.objects.create_user("x"),
    )
    response = client_for(reader).get(HOME)
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(response.content.decode()) == [
        ("requests", f"{dashboard}#lobby", "1 request for a seat waits for your answer.")
    ]
    assert standing(response, "Open table") == "It waits for Great Britain's orders"


def test_the_gm_is_told_of_orders_for_the_gm_not_yet_carried_out(reader):
    campaign = named("By hand")
    seat(campaign, reader, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    lines = [
        {"kind": "card", "text": "Play the Royal Navy card"},
        {"kind": "card", "text": "Play another", "done": True},
        {"kind": "card", "text": "And a third"},
    ]
    Order.objects.create(
        campaign=campaign,
        phase_id=campaign.phase_id,
        power=campaign.powers.get(key="great_britain"),
        payload={"for_gm": {"lines": lines}},
    )
    html = client_for(reader).get(HOME).content.decode()
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(html) == [
        ("gm_orders", f"{dashboard}#gm-orders", "2 orders for the GM wait to be carried out.")
    ]


@pytest.mark.parametrize("co_gm", [False, True])
def test_a_gm_reads_the_others_orders_for_the_gm_once_the_playing_gms_are_ready(reader, co_gm):
    """Whether the reader plays France or is a co-GM of the GM who does."""
    campaign = named("Sealed")
    playing = seat(campaign, User.objects.create_user("player-gm") if co_gm else reader, role="gm")
    Seat.objects.filter(campaign=campaign, power__key="france").delete()
    Seat.objects.filter(pk=playing.pk).update(power=campaign.powers.get(key="france"))
    if co_gm:
        Seat.objects.create(campaign=campaign, role=Seat.Role.GM, user=reader)
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    Order.objects.create(
        campaign=campaign,
        phase_id=campaign.phase_id,
        power=campaign.powers.get(key="great_britain"),
        payload={"for_gm": {"lines": [{"kind": "card", "text": "Secret"}]}},
    )
    assert "gm_orders" not in {
        k for k, _, _ in need_rows(client_for(reader).get(HOME).content.decode())
    }
    mark_ready(campaign, "france")
    assert "gm_orders" in {
        k for k, _, _ in need_rows(client_for(reader).get(HOME).content.decode())
    }


def test_the_gm_enters_the_dice_once_everyone_is_ready(reader):
    campaign = named("Scripted", dice_mode="scripted")
    seat(campaign, reader, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    response = client_for(reader).get(HOME)
    assert 'id="needs-you"' not in response.content.decode()
    assert standing(response, "Scripted") == "It waits for Great Britain's orders"
    mark_ready(campaign, "great_britain")
    response = client_for(reader).get(HOME)
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(response.content.decode()) == [
        (
            "dice",
            f"{dashboard}#phase",
            "Every power is ready: enter the dice and resolve the phase.",
        )
    ]
    assert standing(response, "Scripted") == "It waits for you to close it"


def test_with_no_player_there_the_gm_drives_the_campaign(reader):
    scripted, seeded = named("Scripted", dice_mode="scripted"), named("Seeded")
    for campaign in (scripted, seeded):
        seat(campaign, reader, role="gm")
    rows = need_rows(client_for(reader).get(HOME).content.decode())
    assert [(kind, text) for kind, _, text in rows] == [
        ("dice", "The phase waits for you: enter the dice and resolve it."),
        ("close", "The phase waits for you to close it."),
    ]


def test_the_gm_closes_a_ready_phase_of_a_campaign_that_does_not_resolve_itself(reader):
    campaign = named("By the GM")
    Campaign.objects.filter(pk=campaign.pk).update(auto_resolve=False)
    seat(campaign, reader, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    mark_ready(campaign, "great_britain")
    html = client_for(reader).get(HOME).content.decode()
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(html) == [
        ("close", f"{dashboard}#phase", "Every power is ready: close and resolve the phase.")
    ]


def test_a_campaign_that_resolves_itself_does_not_ask_its_gm_to_close(reader):
    campaign = named("On its own")
    seat(campaign, reader, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    (entry,) = home.entries(reader)
    assert entry.needs == ()


# -- the order, and what it costs -----------------------------------------------------------


def test_decisions_come_first_then_orders_by_deadline_then_the_gms_work(revolt):
    campaign, users = revolt
    france = users["other_player"]
    later, sooner, lobby, rest = (named(n) for n in ("Later", "Sooner", "Lobby", "Rest"))
    for owed, hours in ((later, 30), (sooner, 2)):
        seat(owed, france, "great_britain")
        set_deadline(owed, hours)
    seat(lobby, france, role="gm")
    seat(lobby, User.objects.create_user("briton"), "great_britain")
    SeatRequest.objects.create(
        campaign=lobby, power=lobby.powers.get(key="spain"), user=User.objects.create_user("x")
    )
    seat(rest, france, "france")
    set_deadline(rest, 1)
    response = client_for(france).get(HOME)
    kinds = [kind for kind, _, _ in need_rows(response.content.decode())]
    assert kinds == ["decision", "orders", "orders", "requests"]
    names = [entry.campaign.name for entry in response.context["entries"]]
    assert names == [campaign.name, "Sooner", "Later", "Lobby", "Rest"]
    panel = needs_panel(response.content.decode())
    assert panel.index("Sooner") < panel.index("Later")


def mixed_campaigns(user, count: int) -> None:
    """``count`` campaigns of each kind the home page reads differently: orders owed,
    orders ready, a GM's with a request and orders for the GM, a scripted one everyone is
    ready in, an observer's."""
    for n in range(count):
        owed = named(f"Owed {n}")
        seat(owed, user, "great_britain")
        set_deadline(owed, n + 1)
        ready = named(f"Ready {n}")
        seat(ready, user, "great_britain")
        mark_ready(ready, "great_britain")
        run = named(f"Run {n}")
        seat(run, user, role="gm")
        seat(run, User.objects.create_user(f"{user}-briton-{n}"), "great_britain")
        SeatRequest.objects.create(
            campaign=run,
            power=run.powers.get(key="spain"),
            user=User.objects.create_user(f"{user}-asks-{n}"),
        )
        mark_ready(run, "great_britain", {"for_gm": {"lines": [{"kind": "card", "text": "x"}]}})
        dice = named(f"Dice {n}", dice_mode="scripted")
        seat(dice, user, role="gm")
        watched = named(f"Watched {n}")
        seat(watched, user, role="observer")


def home_queries(user) -> int:
    client = client_for(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(HOME)
    assert response.status_code == 200
    return len(captured)


def test_the_home_page_costs_the_same_queries_for_few_and_many_campaigns(db):
    few, many = User.objects.create_user("few"), User.objects.create_user("many")
    mixed_campaigns(few, 1)
    mixed_campaigns(many, 4)
    assert home_queries(few) == home_queries(many) <= 10


def test_a_decision_under_way_costs_only_its_own_campaigns_state(
    revolt, django_assert_max_num_queries
):
    """The state is loaded for the campaign whose phase waits for a decision, not for the
    others."""
    campaign, users = revolt
    france = users["other_player"]
    alone = home_queries(france)
    mixed_campaigns(france, 3)
    client = client_for(france)
    with django_assert_max_num_queries(alone + 2):  # the GM's requests, orders for the GM
        response = client.get(HOME)
    assert len(response.context["entries"]) == 16


# -- every word through the catalogs ---------------------------------------------------------


def test_the_needs_and_whose_turn_read_in_the_pseudo_locale(revolt, settings):
    """Each kind of need and of "it waits for …" comes through the catalogs, the powers'
    names too (tests/reliability/test_pseudo_locale.py reads the home page of each scene;
    this one has every kind)."""
    from tests import pseudo
    from tests.reliability.test_pseudo_locale import Allowed, escapes_in, pseudo_client

    campaign, users = revolt
    france, gm = users["other_player"], users["gm"]
    mixed_campaigns(gm, 1)
    mixed_campaigns(france, 1)
    quiet = named("Quiet")
    seat(quiet, france, "france")
    seat(quiet, User.objects.create_user("russian"), "russia")
    Phase.objects.filter(pk=quiet.phase_id).update(owing=["great_britain", "russia"])
    by_gm = named("By the GM")
    Campaign.objects.filter(pk=by_gm.pk).update(auto_resolve=False)
    seat(by_gm, gm, role="gm")
    seat(by_gm, User.objects.create_user("briton"), "great_britain")
    mark_ready(by_gm, "great_britain")
    not_yet = named("Not yet")
    Campaign.objects.filter(pk=not_yet.pk).update(started_at=None)
    seat(not_yet, gm, role="gm")
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, pseudo.NAME)]
    kinds = set()
    with pseudo.installed():
        allowed = Allowed.of(campaign)
        for user in (france, users["player"], gm, "gm without France"):
            if user == "gm without France":  # the GM decides for France
                Seat.objects.filter(campaign=campaign, power__key="france").update(user=None)
                user = gm
            response = pseudo_client(user).get(HOME)
            assert response.status_code == 200
            kinds |= set(re.findall(r'data-need="([a-z_]+)"', response.content.decode()))
            assert escapes_in(response, allowed) == [], user
    assert kinds == {kind.name.lower() for kind in home.Kind}


def test_a_gm_whose_campaign_waits_to_start_is_told_to_start_it(reader):
    """A new campaign waits for its GM's word: the GM's home page says so first."""
    campaign = named("Not yet")
    Campaign.objects.filter(pk=campaign.pk).update(started_at=None)
    seat(campaign, reader, role="gm")
    response = client_for(reader).get(HOME)
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert need_rows(response.content.decode()) == [
        ("start", f"{dashboard}#phase", "The campaign waits for you to start it.")
    ]
