"""The admin edits every piece of campaign state: each model of the campaign app and of
every ruleset's app is registered, and its list and an object's form open for a
superuser."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.urls import reverse

from campaign.models import Campaign
from rules.empires_in_arms.models import Corps, EiaPowerStatus, GuerrillaStack
from rules.engine import registry
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign

pytestmark = pytest.mark.django_db

MODELS = [
    model
    for label in ("campaign", *registry())
    for model in apps.get_app_config(label).get_models()
]


def test_every_ruleset_has_tables_in_the_admin():
    assert {m._meta.app_label for m in MODELS} == {"campaign", *registry()}


def test_every_model_of_the_campaign_and_ruleset_apps_is_registered():
    assert [m.__name__ for m in MODELS if not admin.site.is_registered(m)] == []


@pytest.fixture
def superuser_client(client):
    user = get_user_model().objects.create_superuser("root", password="admin-password-1")
    client.force_login(user)
    make_eia_campaign(areas=4), make_pb_campaign(), make_vq_campaign()
    return client


@pytest.mark.sampled(every=3)
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_a_models_list_and_an_objects_form_open(superuser_client, model):
    meta = model._meta
    listing = superuser_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert listing.status_code == 200
    first = model.objects.order_by("pk").first()
    if first is not None:
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
        assert superuser_client.get(url).status_code == 200


def test_a_change_or_deletion_in_the_admin_bumps_its_campaigns_version(client):
    """So that the pages kept for the old version (the World, the map) go."""
    user = get_user_model().objects.create_superuser("root", password="admin-password-1")
    client.force_login(user)
    campaign = make_eia_campaign(areas=4)
    status = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="spain")
    url = reverse("admin:empires_in_arms_eiapowerstatus_change", args=[status.pk])
    form = {field: value for field, value in model_to_dict(status).items() if value is not None}
    before = Campaign.objects.get(pk=campaign.pk).version
    response = client.post(url, {**form, "militia_due": 2})
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).version == before + 1
    stack = (
        GuerrillaStack.objects.filter(campaign=campaign).first()
        or Corps.objects.filter(campaign=campaign).first()
    )
    meta = stack._meta
    changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    response = client.post(
        changelist, {"action": "delete_selected", "_selected_action": [stack.pk], "post": "yes"}
    )
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).version == before + 2


def test_the_campaigns_versions_cannot_be_typed_back(superuser_client):
    """A state version typed back would name a World kept for another state, which the
    pages, the GM's edits and the phases start from (campaign/state/world_cache.py)."""
    campaign = Campaign.objects.order_by("pk").first()
    page = superuser_client.get(reverse("admin:campaign_campaign_change", args=[campaign.pk]))
    assert page.status_code == 200
    assert 'name="state_version"' not in page.content.decode()
    assert 'name="version"' not in page.content.decode()
