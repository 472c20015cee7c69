"""The hot paths of a site with many campaigns (issue 36, item 6): the home page and a page
of the lobby cost the same queries however many campaigns the site holds and however
long their history; the clock reads no resolved phase; the lobby
shows a page at a time; the home page's unread press, now counted channel by channel,
still counts what each seat reads. On
PostgreSQL, each of the clock's and the lobby's queries can use its partial index
(bench/many_campaigns.py measures them on sites of up to 10,000 campaigns)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.core import readiness
from campaign.models import (
    Campaign,
    Channel,
    Message,
    Order,
    Phase,
    Power,
    ReadMarker,
    Seat,
)
from campaign.notify import reminders
from campaign.people import home, lobby
from campaign.play import scheduling
from campaign.press import press
from tests.factories import make_eia_campaign

pytestmark = pytest.mark.django_db
User = get_user_model()
HOME = reverse("campaign:list")
LOBBY = reverse("campaign:lobby")


# -- a site ------------------------------------------------------------------------------


def seat(campaign: Campaign, user, power: str | None = None, role: str = "player") -> Seat:
    """Give ``user`` the power's seat, or the campaign's GM or observer seat."""
    found = campaign.seats.get(power__key=power) if power else campaign.seats.get(role=role)
    found.user = user
    found.save(update_fields=["user"])
    return Seat.objects.select_related("campaign", "power").get(pk=found.pk)


def history(campaign: Campaign, phases: int = 12, messages: int = 12) -> None:
    """A long history: resolved phases, their deadlines long past, every power's orders
    in each, and press in each kind of channel by Great Britain."""
    now = timezone.now()
    done = Phase.objects.bulk_create(
        Phase(
            campaign=campaign,
            turn=100 + n,
            position=0,
            key="peace",
            status=Phase.Status.RESOLVED,
            deadline=now - timedelta(days=300 - n),
            resolved_at=now - timedelta(days=300 - n),
        )
        for n in range(phases)
    )
    powers = list(campaign.powers.all())
    Order.objects.bulk_create(
        Order(campaign=campaign, phase=p, power=w, ready=True) for p in done for w in powers
    )
    briton = next(p for p in powers if p.key == "great_britain")
    addresses = [
        press.PUBLIC_ADDRESS,
        press.Address(Channel.Kind.GM, (briton,)),
        press.Address(
            Channel.Kind.PRIVATE, tuple(p for p in powers if p.key in ("france", "great_britain"))
        ),
    ]
    channels = [press.channel_for(campaign, a) for a in addresses]
    Message.objects.bulk_create(
        Message(
            campaign=campaign,
            channel=channels[n % 3],
            power=briton,
            turn=1,
            phase=done[n % len(done)],
            text=f"news {n}",
        )
        for n in range(messages)
    )


def other_campaigns(count: int) -> list[Campaign]:
    """Campaigns of other people, each with a history, a deadline a day away and its
    first reminders sent."""
    found = []
    for _ in range(count):
        campaign = make_eia_campaign(areas=3)
        briton = User.objects.create_user(f"briton-{campaign.pk}", f"b{campaign.pk}@example.org")
        seat(campaign, briton, "great_britain")
        history(campaign)
        Phase.objects.filter(pk=campaign.phase_id).update(
            deadline=timezone.now() + timedelta(hours=20)
        )
        found.append(campaign)
    reminders.send_due(timezone.now())
    return found


def queries(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- the same queries, however many campaigns -------------------------------------------


def test_the_home_page_costs_the_same_queries_with_many_campaigns_and_a_long_history(
    django_assert_num_queries,
):
    reader = User.objects.create_user("reader")
    mine = [make_eia_campaign(areas=3) for _ in range(3)]
    seat(mine[0], reader, "great_britain")
    seat(mine[1], reader, role="gm")
    seat(mine[2], reader, role="observer")
    client = client_for(reader)
    client.get(HOME)  # a first visit may note what the browser says
    few = len(queries(lambda: client.get(HOME)))
    for campaign in mine:
        history(campaign)
    more = make_eia_campaign(areas=3)
    seat(more, reader, "france")
    history(more, phases=30, messages=40)
    other_campaigns(4)
    with django_assert_num_queries(few):
        response = client.get(HOME)
    assert len(response.context["entries"]) == 4
    assert sum(e.unread for e in response.context["entries"]) > 0


# -- the clock ----------------------------------------------------------------------------


def test_the_deadlines_due_are_read_among_the_open_phases_only():
    campaign = make_eia_campaign(areas=3)
    history(campaign, phases=20)
    now = timezone.now()
    assert list(readiness.due_phases(now)) == []
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=now - timedelta(minutes=1))
    assert [p.pk for p in readiness.due_phases(now)] == [campaign.phase_id]


def test_an_away_period_is_noticed_once_and_only_those_not_noticed_are_read():
    first, second = make_eia_campaign(areas=3), make_eia_campaign(areas=3)
    now = timezone.now()
    for campaign, start in ((first, -1), (second, 24)):  # begun, to come
        Seat.objects.filter(campaign=campaign, power__key="spain").update(
            away_from=now + timedelta(hours=start), away_until=now + timedelta(days=3)
        )
    Seat.objects.filter(campaign=second, power__key="russia").update(  # long over, noticed
        away_from=now - timedelta(days=9), away_until=now - timedelta(days=8), away_noticed=True
    )
    assert scheduling.begun_away_periods(now) == [first.pk]
    assert len(queries(lambda: scheduling.begun_away_periods(now))) == 1  # nothing to mark
    assert scheduling.begun_away_periods(now + timedelta(days=1, minutes=1)) == [second.pk]


def test_the_reminders_cost_the_same_queries_however_many_campaigns_run():
    """Once the clock has looked, it reads again only what changed or came due since: a
    phase whose due reminders have gone is not read at each tick."""
    other_campaigns(1)
    few = queries(lambda: reminders.send_due(timezone.now()))
    other_campaigns(4)
    many = queries(lambda: reminders.send_due(timezone.now()))
    assert len(many) == len(few) == 6
    assert not any("campaign_remindersent" in sql for sql in many)  # no phase read for them


def test_campaigns_changed_all_at_once_are_looked_at_a_query_at_a_time(monkeypatch):
    found = other_campaigns(3)
    Campaign.objects.update(version=F("version") + 1)  # an admin's action on them all
    monkeypatch.setattr(reminders, "LOOKED_AT_ONCE", 2)
    unchecked = list(reminders.unchecked_campaigns())
    looked = list(reminders._phases_to_look_at(timezone.now(), [[24, 2]], unchecked))
    assert [len(phases) for phases in looked] == [2, 1]
    assert {p.pk for phases in looked for p in phases} == {c.phase_id for c in found}


def test_the_sites_connections_run_without_jit(on_postgresql):
    """A query whose estimate runs high (the clock's reminders at 10,000 campaigns) would
    spend longer in PostgreSQL's JIT compilation than in its own work (courier/settings.py)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)


PLANS = {  # a query, and the indexes it reads through (of its rows, open phases only)
    "due deadlines": (lambda now: list(readiness.due_phases(now)), [{"phase_open_deadline"}]),
    "away periods": (  # either reads only periods not noticed, or not over
        lambda now: scheduling.begun_away_periods(now),
        [{"seat_away_to_notice", "seat_away_until"}],
    ),
    "reminders: campaigns changed": (
        lambda now: list(reminders.unchecked_campaigns()),
        [{"campaign_reminders_unchecked"}],
    ),
    "reminders: offsets passed": (
        lambda now: list(reminders.offsets_passed(now - timedelta(seconds=5), now, [2, 24])),
        [{"phase_open_deadline"}],
    ),
    "reminders: away periods ended": (
        lambda now: list(reminders.back_from_away(now - timedelta(seconds=5), now)),
        [{"seat_away_until"}],
    ),
    "lobby": (lambda now: list(lobby.in_lobby()), [{"campaign_in_lobby"}, {"power_in_disorder"}]),
}


@pytest.mark.parametrize("name", PLANS)
def test_each_query_of_the_clock_and_the_lobby_reads_through_its_partial_indexes(
    on_postgresql, name
):
    """The query's conditions fit its indexes (on a table this small PostgreSQL would
    rather read it all: sequential scans are turned off). The bench
    (bench/many_campaigns.py --explain) shows the plans on a site of 10,000 campaigns."""
    other_campaigns(2)
    call, indexes = PLANS[name]
    (sql, *_) = queries(lambda: call(timezone.now()))
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    for allowed in indexes:
        assert any(re.search(rf"(using|Index Scan on) {index} ", plan) for index in allowed), plan


# -- the lobby, a page at a time ----------------------------------------------------------


def listed(count: int, start: int = 0) -> list[Campaign]:
    """Campaigns in the lobby, named "Table 00", "Table 01", …"""
    found = []
    for n in range(start, start + count):
        campaign = make_eia_campaign(areas=3)
        Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True, name=f"Table {n:02d}")
        found.append(campaign)
    return found


def names(response) -> list[str]:
    return [listing.campaign.name for listing in response.context["listings"]]


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(lobby, "PAGE_SIZE", 3)


def test_the_lobby_shows_a_page_at_a_time_with_links(small_pages):
    listed(7)
    client = Client()
    first = client.get(LOBBY)
    assert names(first) == ["Table 00", "Table 01", "Table 02"]
    page = first.content.decode()
    assert 'rel="next" href="?page=2"' in page and 'rel="prev"' not in page
    assert "Page 1 of 3" in page
    second = client.get(LOBBY, {"page": 2})
    assert names(second) == ["Table 03", "Table 04", "Table 05"]
    page = second.content.decode()
    assert 'rel="prev" href="?page=1"' in page and 'rel="next" href="?page=3"' in page
    assert names(client.get(LOBBY, {"page": 3})) == ["Table 06"]


@pytest.mark.parametrize("number", ["0", "-1", "4", "99999999999999999999999", "two", "1e3", ""])
def test_a_number_that_is_no_page_of_the_lobby_gives_the_first(small_pages, number):
    listed(7)
    response = Client().get(LOBBY, {"page": number})
    assert response.status_code == 200
    assert names(response) == ["Table 00", "Table 01", "Table 02"]


def test_the_lobby_lists_what_it_listed_and_counts_nothing_else(small_pages):
    """In the lobby: free seats listed, anyone may watch, or a power in civil disorder
    whose seat wants a player (listed or not); not: listed without a free seat, ended."""
    shown = listed(2)
    full, ended, watched, disorder = listed(4, start=2)
    for n, each in enumerate(Seat.objects.filter(campaign=full, role="player")):
        seat(full, User.objects.create_user(f"player-{n}"), each.power.key)
    Campaign.objects.filter(pk=ended.pk).update(ended_at=timezone.now())
    Campaign.objects.filter(pk=watched.pk).update(lobby_open=False, lobby_watch=True)
    Campaign.objects.filter(pk=disorder.pk).update(lobby_open=False)
    seat(disorder, User.objects.create_user("gone"), "prussia")
    Power.objects.filter(campaign=disorder, key="prussia").update(disorder_since=timezone.now())
    response = Client().get(LOBBY)
    assert names(response) == ["Table 00", "Table 01", "Table 04"]
    assert response.context["page"].paginator.count == 4
    assert names(Client().get(LOBBY, {"page": 2})) == ["Table 05"]
    assert {c.pk for c in lobby.in_lobby()} == {*(c.pk for c in shown), watched.pk, disorder.pk}


def test_a_page_of_the_lobby_costs_the_same_queries_however_many_are_listed(
    small_pages, django_assert_num_queries
):
    listed(4)
    reader = User.objects.create_user("reader")
    client = client_for(reader)
    client.get(LOBBY)  # a first visit may note what the browser says
    few = len(queries(lambda: client.get(LOBBY)))
    listed(12, start=4)
    other_campaigns(2)
    with django_assert_num_queries(few):
        assert len(names(client.get(LOBBY, {"page": 2}))) == 3


# -- the unread press ---------------------------------------------------------------------


def unread_by_entries(user, seats: list[Seat]) -> dict[int, int]:
    """What the press pages count for each seat (press.entries), by campaign."""
    found = {}
    for s in seats:
        count = sum(e.unread for e in press.entries(s, user, press.campaign_powers(s.campaign)))
        if count:
            found[s.campaign_id] = count
    return found


def test_the_unread_press_counts_what_each_seat_reads_in_every_kind_of_channel():
    """Five kinds of channel (public, a power's with the GM, private, private the GM
    reads, a replaced player's as they left it) over three campaigns of one reader, and
    a second reader in each: the home page counts what the press pages count."""
    reader, other = User.objects.create_user("reader"), User.objects.create_user("other")
    playing, running, replaced = (make_eia_campaign(areas=3) for _ in range(3))
    Campaign.objects.filter(pk=running.pk).update(gm_reads_private=True)
    mine = [seat(playing, reader, "france"), seat(running, reader, role="gm")]
    theirs = [seat(playing, other, "great_britain"), seat(running, other, "spain")]
    theirs.append(seat(replaced, other, "great_britain"))
    powers = {c.pk: press.campaign_powers(c) for c in (playing, running, replaced)}

    def write(campaign, to: str, text: str, author=None) -> None:
        address = press.address_of(to, powers[campaign.pk])
        Message.objects.create(
            campaign=campaign,
            channel=press.channel_for(campaign, address),
            author=author,
            turn=1,
            text=text,
        )

    for campaign in (playing, running, replaced):
        for n in range(2):
            write(campaign, press.PUBLIC, f"public {n}")
            write(campaign, "gm-france", f"to France {n}")
            write(campaign, "gm-spain", f"to Spain {n}")
            write(campaign, "france+great_britain", f"pact {n}")
            write(campaign, "austria+spain", f"other pact {n}")
    write(playing, press.PUBLIC, "mine", author=reader)  # one's own: never unread
    left = Seat.objects.create(
        campaign=replaced,
        role=Seat.Role.OBSERVER,
        user=reader,
        former_power=replaced.powers.get(key="france"),
        left_at=timezone.now(),
    )
    write(replaced, "gm-france", "after leaving")
    write(replaced, "france+great_britain", "pact after leaving")
    write(replaced, press.PUBLIC, "public after leaving")
    mine.append(Seat.objects.select_related("campaign", "power").get(pk=left.pk))
    expected = unread_by_entries(reader, mine)
    assert expected == {playing.pk: 6, running.pk: 10, replaced.pk: 7}
    assert home.unread_press(reader, mine) == expected
    assert home.unread_press(other, theirs) == unread_by_entries(other, theirs)
    public = Channel.objects.get(campaign=playing, key=press.PUBLIC)
    ReadMarker.objects.create(
        user=reader, channel=public, last_read=public.messages.order_by("-pk")[1].pk
    )
    assert home.unread_press(reader, mine) == unread_by_entries(reader, mine)
    assert home.unread_press(reader, mine)[playing.pk] == 4


def test_the_home_page_counts_the_unread_press_in_one_query_without_the_sites_press():
    """The count reads the reader's channels and, in each, the messages past the
    reader's marker (the index of a channel's messages by id), not every message."""
    reader = User.objects.create_user("reader")
    campaign = make_eia_campaign(areas=3)
    mine = [seat(campaign, reader, "france")]
    history(campaign, messages=30)
    other_campaigns(2)
    (sql,) = queries(lambda: home.unread_press(reader, mine))
    assert re.search(r'"channel_id" = \("campaign_channel"\."id"\)', sql)
    assert home.unread_press(reader, mine) == {campaign.pk: 20}  # public and the pact
