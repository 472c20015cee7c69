"""Watching a game with hidden information (campaign/core/watching.py): an observer (from the
lobby or invited) sees what the GM chose, by default no power's hidden state until the
campaign ends, or what one power's player sees; the GM sets it with the lobby settings,
each change logged; a game without hidden information hides nothing from anyone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign.core import watching
from campaign.errors import ServiceError
from campaign.models import Campaign, Event
from campaign.people import lobby
from campaign.play.ending import end_campaign
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users, snapshot

pytestmark = pytest.mark.django_db
User = get_user_model()
COALITION = frozenset({"russia", "saxony", "denmark"})


@pytest.fixture
def campaign():
    return make_pb_campaign()


@pytest.fixture
def users(campaign):
    found = seat_users(campaign, "sweden", "russia")
    found["watcher"] = User.objects.create_user(f"watcher-{campaign.pk}")
    return found


def viewer_of(campaign, user):
    campaign = Campaign.objects.get(pk=campaign.pk)
    seat = campaign.seats.select_related("power", "campaign").get(user=user)
    rules = campaign.rules
    return watching.seat_viewer(seat, rules, rules.load_world(campaign))


def set_watchers(campaign, users, watchers_see, watch=True):
    lobby.set_lobby(
        campaign_id=campaign.pk,
        lobby_open=False,
        lobby_at_once=False,
        lobby_watch=watch,
        watchers_see=watchers_see,
        actor=users["gm"],
    )


def test_each_role_sees_its_own_by_default(campaign, users):
    assert viewer_of(campaign, users["gm"]) is None
    assert viewer_of(campaign, users["player"]) == frozenset({"sweden"})
    assert viewer_of(campaign, users["other_player"]) == COALITION
    assert viewer_of(campaign, users["observer"]) == frozenset()  # no power's hidden state


def test_a_watcher_from_the_lobby_sees_no_side_by_default(campaign, users):
    set_watchers(campaign, users, "")
    lobby.watch(campaign_id=campaign.pk, user=users["watcher"])
    assert viewer_of(campaign, users["watcher"]) == frozenset()


def test_the_gm_may_let_watchers_see_one_side(campaign, users):
    set_watchers(campaign, users, "russia")
    lobby.watch(campaign_id=campaign.pk, user=users["watcher"])
    for role in ("watcher", "observer"):
        assert viewer_of(campaign, users[role]) == COALITION
    said = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM)
    assert said.filter(text__contains="watchers see what Russia's player sees").exists()


def test_everything_once_the_campaign_ends(campaign, users):
    set_watchers(campaign, users, "russia")
    campaign.refresh_from_db()
    end_campaign(
        campaign_id=campaign.pk, expected_state_version=campaign.state_version, actor=users["gm"]
    )
    assert viewer_of(campaign, users["observer"]) is None


def test_the_lobby_refuses_a_watch_seat_unless_the_gm_enabled_watching(campaign, users):
    before = snapshot(campaign)
    with pytest.raises(ServiceError, match="cannot be watched from the lobby"):
        lobby.watch(campaign_id=campaign.pk, user=users["watcher"])
    assert snapshot(campaign) == before
    assert not campaign.lobby_watch and campaign.watchers_see == ""  # off by default


@pytest.mark.parametrize("key", ["prussia", "nope"])
def test_a_power_not_of_the_campaign_is_refused(campaign, users, key):
    before = snapshot(campaign)
    with pytest.raises(ServiceError, match="no such power"):
        set_watchers(campaign, users, key)
    assert snapshot(campaign) == before


def test_a_game_without_hidden_information_hides_nothing_from_watchers():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    assert viewer_of(campaign, users["observer"]) is None
    with pytest.raises(ServiceError, match="hides nothing"):
        set_watchers(campaign, users, "france")
    set_watchers(campaign, users, None)  # the form asks nothing: unchanged
    assert Campaign.objects.get(pk=campaign.pk).lobby_watch


def test_the_observer_is_mailed_what_they_may_see(campaign, users):
    """The phase-resolved mail asks the same question: a side's secret line reaches the
    observer redacted, unless the GM lets watchers see that side."""
    from django_tasks_db.models import DBTaskResult

    from campaign.notify import notifications

    for role, user in users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])

    def mailed() -> dict[str, str]:
        """Each mail handed to the worker, by its reader's role: its text and HTML parts."""
        tasks = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail")
        found = {}
        for task in tasks:
            (mail,) = task.args_kwargs["args"]
            found[mail["to"].split("@")[0]] = mail["text"] + mail["html"]
        tasks.delete()
        return found

    Event.objects.create(
        campaign=campaign,
        phase=campaign.phase,
        turn=1,
        kind=Event.Kind.RULE,
        text="Saxony-Poland draws Schulenburg.",
        redacted="Saxony-Poland draws a block.",
        audience=["saxony"],
    )
    for watchers_see, sees in (("", False), ("russia", True)):
        set_watchers(campaign, users, watchers_see)
        campaign.refresh_from_db()
        notifications._phase_resolved(campaign, campaign.phase)
        sent = mailed()
        assert ("draws Schulenburg" in sent["observer"]) is sees
        assert "draws Schulenburg" in sent["gm"]
        assert "draws Schulenburg" in sent["other_player"]
        assert "draws Schulenburg" not in sent["player"]
        assert "draws a block" in sent["player"]
