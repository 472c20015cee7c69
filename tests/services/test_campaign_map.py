"""A campaign's own map (manage.py build_map --campaign): the GM moves an area's point in
the admin (Area.x, y) and rebuilds; the campaign then draws its own shapes. A point
moved where the area cannot be stops the build, naming the area, and keeps what was."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from campaign.maps.stored import built_map, campaign_map
from campaign.models import Area, CampaignMap
from campaign.scenarios import create_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    gm = get_user_model().objects.create_user("map-gm")
    return create_campaign(scenario_key="virgin-queen-1559", name="Moved", gm=gm)


def rebuild(campaign) -> None:
    call_command("build_map", campaign=campaign.pk, stdout=io.StringIO())


def test_unmoved_a_campaign_draws_its_scenarios_map_and_rebuilt_the_same_shapes(campaign):
    assert campaign_map(campaign) == built_map("virgin-queen-1559")
    rebuild(campaign)
    own, shipped = campaign_map(campaign), built_map("virgin-queen-1559")
    assert set(own.areas) == set(shipped.areas)
    lyon = own.areas["lyon"].anchor, shipped.areas["lyon"].anchor
    assert abs(lyon[0][0] - lyon[1][0]) < 3 and abs(lyon[0][1] - lyon[1][1]) < 3


def test_a_point_the_gm_moved_moves_its_area_once_rebuilt(campaign):
    before = built_map("virgin-queen-1559").areas["lyon"].anchor
    Area.objects.filter(campaign=campaign, key="lyon").update(y=models_y(campaign, "lyon") + 12)
    assert campaign_map(campaign).areas["lyon"].anchor == before  # until the GM rebuilds
    rebuild(campaign)
    after = campaign_map(campaign).areas["lyon"].anchor
    assert after[1] > before[1] + 5  # further south on the drawn map too


def test_a_point_moved_into_the_sea_stops_the_build_and_keeps_the_map(campaign):
    rebuild(campaign)
    kept = CampaignMap.objects.get(campaign=campaign).document
    Area.objects.filter(campaign=campaign, key="lyon").update(x=5, y=5)  # off the coast
    with pytest.raises(CommandError, match="lyon"):
        rebuild(campaign)
    assert CampaignMap.objects.get(campaign=campaign).document == kept


def test_no_such_campaign_and_mixed_arguments_are_refused():
    with pytest.raises(CommandError, match="No campaign"):
        call_command("build_map", campaign=10**9, stdout=io.StringIO())
    with pytest.raises(CommandError, match="alone"):
        call_command("build_map", "eia-1805", campaign=1, stdout=io.StringIO())


def models_y(campaign, key: str) -> float:
    return Area.objects.get(campaign=campaign, key=key).y
