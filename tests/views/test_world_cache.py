"""The pages read the World from the shared cache for the campaign's state version
(campaign/state/world_cache.py): built once a version, afresh after any change of the
state, and kept across a player's orders, which the World does not hold. A GM edit keeps
the World it wrote once it has committed, so its answer reads no state again. An edit and
a phase start from the World kept for the version they lock, reading the state only when
the cache does not have it (tests/conftest.py checks on every edit and phase of the suite
that each of these Worlds is the one the rows hold)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign
from campaign.models.core import new_state_stamp
from campaign.play import gm_edits
from campaign.play.scheduling import set_absent
from campaign.play.services import resolve_open_phase, submit_orders
from campaign.state import persistence, world_cache
from rules.empires_in_arms.models import EiaPowerStatus
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def loads(monkeypatch) -> list[int]:
    """Every World loaded from the database for a page during the test (through the
    page's rows), by campaign id."""
    from rules.engine import Ruleset

    loaded: list[int] = []
    real = Ruleset.load_world

    def counting(self, campaign, rows=None):
        if rows is not None:
            loaded.append(campaign.pk)
        return real(self, campaign, rows)

    monkeypatch.setattr(Ruleset, "load_world", counting)
    return loaded


def test_the_readers_of_one_version_build_the_world_once(client, loads):
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign, player="france", other="spain")
    loads.clear()  # the campaign's start read it
    detail = reverse("campaign:detail", args=[campaign.pk])
    for role in ("player", "other_player", "gm"):
        client.force_login(users[role])
        assert client.get(detail).status_code == 200
    assert client.get(reverse("campaign:gm", args=[campaign.pk])).status_code == 200
    assert loads == [campaign.pk]
    Campaign.objects.get(pk=campaign.pk).bump_version()  # any change
    assert client.get(detail).status_code == 200
    assert loads == [campaign.pk, campaign.pk]


def test_a_process_unpacks_the_world_of_a_version_once(client, monkeypatch):
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign, player="france", other="spain")
    unpacked: list[int] = []
    kept_world = world_cache.kept_world

    def counted(campaign):
        unpacked.append(campaign.pk)
        return kept_world(campaign)

    monkeypatch.setattr(world_cache, "kept_world", counted)
    detail = reverse("campaign:detail", args=[campaign.pk])
    client.force_login(users["player"])
    assert client.get(detail).status_code == 200
    world_cache.recent.clear()  # as another process would find it: kept, not unpacked
    unpacked.clear()
    for role in ("player", "other_player", "gm"):
        client.force_login(users[role])
        assert client.get(detail).status_code == 200
    assert unpacked == [campaign.pk]
    Campaign.objects.get(pk=campaign.pk).bump_version()  # any change of the state
    assert client.get(detail).status_code == 200
    assert unpacked == [campaign.pk, campaign.pk]


def test_a_process_forgets_the_world_it_read_longest_ago():
    recent = world_cache.RecentWorlds(size=2)
    recent.remember("a", "world a")
    recent.remember("b", "world b")
    assert recent.get("a") == "world a"  # read again: b is now the older
    recent.remember("c", "world c")
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == ("world a", None, "world c")


def test_a_players_orders_leave_the_world_as_it_is(client, loads):
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign, player="france")
    loads.clear()
    client.force_login(users["player"])
    detail = reverse("campaign:detail", args=[campaign.pk])
    assert client.get(detail).status_code == 200
    seat = campaign.seats.select_related("power").get(power__key="france")
    submit_orders(seat=seat, phase_id=campaign.phase_id, payload={}, ready=True, actor=seat.user)
    html = client.get(detail).content.decode()
    assert "marked its orders ready" in html  # the page of the new version
    assert loads == [campaign.pk]  # its World, the one kept: orders are not in it


def test_the_page_after_a_gm_edit_shows_the_edited_state(client):
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign, player="france")
    client.force_login(users["gm"])
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert client.get(dashboard).status_code == 200
    version = Campaign.objects.get(pk=campaign.pk).state_version
    url = reverse("campaign:edit", args=[campaign.pk, "power"])
    data = {"power": "spain", "treasury": "77", "state_version": version}
    form = {"political_points": "5", "zone": "Neutral", "pays_bad_roll": "on"}
    response = client.post(url, {**form, **data})
    assert response.status_code == 302  # back to the dashboard, with a message
    html = client.get(dashboard).content.decode()
    assert "<td>$77</td>" in spain_row(html)  # the World of the new version, not the old


def test_a_world_kept_for_another_history_of_the_version_is_not_read(client):
    """A restore of an older backup brings a campaign back to an older state version, and
    its next changes to versions the cache may still hold Worlds of, from the history
    the restore undid: each version's stamp tells the two apart."""
    campaign = gm_at_dashboard(client)  # its World kept for its state version
    # the other history: Spain's treasury at 77 at the same state version
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="spain").update(treasury=77)
    Campaign.objects.filter(pk=campaign.pk).update(state_stamp=new_state_stamp())
    # read by the same process: neither the World it keeps unpacked nor the cache's is read
    html = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert "<td>$77</td>" in spain_row(html)


def gm_at_dashboard(client) -> Campaign:
    """A small Empires in Arms campaign whose GM has just loaded the dashboard."""
    campaign = make_eia_campaign(areas=4)
    client.force_login(seat_users(campaign, player="france")["gm"])
    assert client.get(reverse("campaign:gm", args=[campaign.pk])).status_code == 200
    return campaign


def spain_row(html: str) -> str:
    """Spain's row of the powers panel."""
    powers = html[html.index('<section id="powers"') :]
    return re.search(r'<th scope="row">Spain</th>(.*?)</tr>', powers, re.S).group(1)


def in_place_power_edit(client, campaign, treasury: str):
    version = Campaign.objects.get(pk=campaign.pk).state_version
    url = reverse("campaign:edit", args=[campaign.pk, "power"])
    data = {"power": "spain", "treasury": treasury, "state_version": version}
    form = {"political_points": "5", "zone": "Neutral", "pays_bad_roll": "on"}
    return client.post(url, {**form, **data}, HTTP_HX_REQUEST="true")


@pytest.mark.django_db(transaction=True)  # the edit commits, as it does when served
def test_an_edit_in_place_answers_from_the_world_it_wrote(client, loads):
    campaign = gm_at_dashboard(client)
    loads.clear()
    response = in_place_power_edit(client, campaign, "77")
    assert response.status_code == 200
    assert loads == []  # the answer read the World the edit kept, not the state
    html = response.content.decode()
    assert "<td>$77</td>" in spain_row(html)


def test_an_edit_keeps_its_world_only_once_committed(client, loads):
    campaign = gm_at_dashboard(client)
    loads.clear()
    assert in_place_power_edit(client, campaign, "77").status_code == 200
    assert loads == [campaign.pk]  # this test's edit never commits: the answer read it


def spain_edit(campaign, gm, treasury: int) -> int:
    """A power edit made through the service: how many queries it took."""
    edit = {"zone": "Neutral", "political_points": 5, "treasury": treasury, "pays_bad_roll": False}
    with CaptureQueriesContext(connection) as queries:
        campaign.rules.hooks.gm_edit(
            campaign_id=campaign.pk, actor=gm, edit="power", power="spain", **edit
        )
    return len(queries)


def test_an_edit_starts_from_the_world_kept_for_the_version_it_locks(client, monkeypatch):
    monkeypatch.setattr(gm_edits, "world_cache", world_cache)  # counted without the check
    monkeypatch.setattr(persistence, "world_cache", world_cache)
    campaign = make_eia_campaign(areas=4)
    gm = seat_users(campaign, player="france")["gm"]
    client.force_login(gm)
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert client.get(dashboard).status_code == 200  # keeps the World of this version
    warm = spain_edit(campaign, gm, 61)
    cache.clear()
    cold = spain_edit(campaign, gm, 62)
    assert warm < cold - 5  # the cold edit read the state's tables; the warm one its ids
    assert "<td>$62</td>" in spain_row(client.get(dashboard).content.decode())


def resolved(campaign, gm) -> int:
    """The open phase resolved as the GM's button resolves it, then rolled back: how many
    queries it took."""
    campaign.refresh_from_db()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=gm)
        transaction.set_rollback(True)
    return len(queries)


def test_a_phase_starts_from_the_world_kept_for_the_version_it_locks(client, monkeypatch):
    monkeypatch.setattr(persistence, "world_cache", world_cache)  # counted without the check
    campaign = make_eia_campaign(areas=4)
    gm = seat_users(campaign, player="france")["gm"]
    client.force_login(gm)
    detail = reverse("campaign:detail", args=[campaign.pk])
    assert client.get(detail).status_code == 200  # keeps the World of this version
    warm = resolved(campaign, gm)
    cache.clear()
    cold = resolved(campaign, gm)  # the same phase
    assert warm < cold - 5  # the cold phase read the state's tables; the warm one its ids


def test_a_power_marked_absent_keeps_the_world_of_the_version_before(
    client, loads, django_capture_on_commit_callbacks
):
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign, player="france", other="spain")
    client.force_login(users["player"])
    detail = reverse("campaign:detail", args=[campaign.pk])
    assert client.get(detail).status_code == 200
    loads.clear()
    spain = campaign.powers.get(key="spain")
    with django_capture_on_commit_callbacks(execute=True):
        set_absent(campaign_id=campaign.pk, power_id=spain.pk, absent=True, actor=users["gm"])
    assert client.get(detail).status_code == 200
    assert loads == []  # an absence is no part of the World: the kept one serves the new version
    Campaign.objects.get(pk=campaign.pk).bump_version()  # any other change
    assert client.get(detail).status_code == 200
    assert loads == [campaign.pk]


def test_a_world_kept_by_other_code_is_not_read(client, loads, monkeypatch):
    """After a deploy (or on a node not yet updated) the World classes, their loader or the
    options' defaults may differ: the Worlds kept by the other code are not read."""
    campaign = make_eia_campaign(areas=4)
    users = seat_users(campaign)
    client.force_login(users["player"])
    detail = reverse("campaign:detail", args=[campaign.pk])
    assert client.get(detail).status_code == 200
    loads.clear()
    assert client.get(detail).status_code == 200
    assert loads == []
    monkeypatch.setattr(world_cache, "loading_code", lambda ruleset: "another-deploy")
    assert client.get(detail).status_code == 200
    assert loads == [campaign.pk]


def test_the_loading_codes_digest_changes_with_any_source_and_reads_each_once(tmp_path):
    game = tmp_path / "game"
    (game / "forms").mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "forms" / "orders.py").write_text("DEFAULT = 1\n")
    first = world_cache.sources_digest({game})
    assert world_cache.sources_digest({game, game / "forms"}) == first  # nested: read once
    (game / "forms" / "orders.py").write_text("DEFAULT = 2\n")
    assert world_cache.sources_digest({game}) != first
