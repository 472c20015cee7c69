"""The scenario's names people read (powers, areas) are in the reader's language on the
pages, in the legend, the tables and the log, and as the scenario gives them where no
catalog has them."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "language, france, palatinate", [("el", "Γαλλία", "Παλατινάτο"), ("ru", "Франция", "Пфальц")]
)
def test_powers_and_areas_read_in_the_readers_language(
    client_as, campaign, language, france, palatinate
):
    page = client_as("player").get(
        reverse("campaign:detail", args=[campaign.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    html = page.content.decode()
    assert france in html and palatinate in html
    table = client_as("player").get(
        reverse("campaign:area_table", args=[campaign.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert palatinate in table.content.decode()
    assert "Minor 000" in table.content.decode()  # no catalog has it


def test_the_log_names_powers_in_the_readers_language(client_as, campaign):
    url = reverse("campaign:orders", args=[campaign.pk])
    client_as("player").post(url, {"phase": campaign.phase_id, "ready": "1"})
    html = (
        client_as("gm")
        .get(reverse("campaign:detail", args=[campaign.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        .content.decode()
    )
    log = html.split('id="log"', 1)[1]
    assert "Держава Франция отметила свои приказы как готовые" in log
    assert "France" not in log
