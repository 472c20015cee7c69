"""An invitation link whose token could never have been issued is simply not found: a NUL
byte in it used to reach PostgreSQL, which refuses it in a query (a 500)."""

import pytest
from django.urls import reverse

from tests.factories import snapshot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("token", ["\x00", "a\x00b", "<script>", "é" * 3, "x" * 65])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_token_never_issued_is_404(campaign, client_as, token, method):
    before = snapshot(campaign)
    url = reverse("campaign:join", args=["TOKEN"]).replace("TOKEN", token)
    response = getattr(client_as("outsider"), method)(url)
    assert response.status_code == 404
    assert snapshot(campaign) == before


def test_an_issued_token_still_joins(campaign, client_as):
    seat = campaign.seats.filter(user=None, power__key="spain").get()
    response = client_as("outsider").post(reverse("campaign:join", args=[seat.invite_token]))
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.user is not None
