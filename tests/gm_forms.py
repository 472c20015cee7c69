"""GM posts in tests carry the campaign's current state version, as the dashboard's forms
do (campaign.core.changes.expecting_state), unless a test sends its own or opts out with
``@pytest.mark.raw_gm_posts`` to test the version itself."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.test import Client
from django.urls import Resolver404, resolve, reverse

from campaign.models import Campaign

GM_PATH = "/gm/"  # every GM action lives under campaigns/<id>/gm/


def with_state_version(path: str, data):
    """``data`` with the state version of the campaign a GM action ``path`` names."""
    if GM_PATH not in path or not isinstance(data, dict) or "state_version" in data:
        return data
    try:
        campaign_id = resolve(urlsplit(path).path).kwargs.get("campaign_id")
    except Resolver404:
        return data
    versions = Campaign.objects.filter(pk=campaign_id).values_list("state_version", flat=True)
    version = versions.first()
    return data if version is None else {**data, "state_version": version}


def patch_client(monkeypatch) -> None:
    """Make every test client's GM posts carry the current state version."""
    post = Client.post

    def post_with_state_version(self, path, data=None, *args, **kwargs):
        return post(self, path, with_state_version(path, data or {}), *args, **kwargs)

    monkeypatch.setattr(Client, "post", post_with_state_version)


def log_seen(client: Client, campaign) -> str:
    """Where the log the GM's dashboard shows ends, as its forms send it (``log_seen``)."""
    page = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    return re.search(r'id="log-seen" name="log_seen" value="(\d+)"', page).group(1)
