"""The API's personal access tokens in the preferences: made (shown once, stored as its
digest only), listed, revoked; another user's token, a GET, an anonymous visitor and
one token too many are refused and change nothing."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from campaign.api import tokens
from campaign.models.reach import AccessToken, token_digest

pytestmark = pytest.mark.django_db
PREFERENCES = reverse("campaign:preferences")
MAKE = reverse("campaign:token_make")
SHOWN = re.compile(r'<code class="hash">(courier_[\w-]+)</code>')


def revoke_url(token_id: int) -> str:
    return reverse("campaign:token_revoke", args=[token_id])


def make(client, name: str = "my bot"):
    return client.post(MAKE, {"name": name}, follow=True)


def test_a_new_token_is_shown_once_and_only_its_digest_is_kept(client_as, users):
    client = client_as("player")
    page = make(client, "  my   bot ").content.decode()
    (token,) = SHOWN.findall(page)
    assert "Copy it now" in page
    row = AccessToken.objects.get(user=users["player"])
    assert (row.name, row.digest, row.prefix) == ("my bot", token_digest(token), token[:12])
    assert token not in {row.digest, row.prefix, row.name}
    again = client.get(PREFERENCES).content.decode()
    assert token not in again and not SHOWN.findall(again)
    assert "my bot" in again and f"{row.prefix}…" in again


def test_the_preferences_list_only_the_users_own_tokens(client_as, users):
    tokens.make_token(user=users["other_player"], name="their bot")
    make(client_as("player"), "my bot")
    html = unescape(client_as("player").get(PREFERENCES).content.decode())
    section = html[html.index('id="api-tokens"') :]
    assert "my bot" in section and "their bot" not in section
    assert reverse("api:openapi-json") in section


def test_a_nameless_token_is_refused(client_as, users):
    html = unescape(make(client_as("player"), "   ").content.decode())
    assert "No token was made" in html
    assert not AccessToken.objects.exists()


def test_the_limit_is_refused_clearly(client_as, users):
    for number in range(tokens.TOKENS_LIMIT):
        tokens.make_token(user=users["player"], name=f"bot {number}")
    html = unescape(make(client_as("player"), "one more").content.decode())
    assert "the most allowed" in html and not SHOWN.findall(html)
    assert AccessToken.objects.filter(user=users["player"]).count() == tokens.TOKENS_LIMIT


def test_revoking_a_token_deletes_it(client_as, users):
    row, _ = tokens.make_token(user=users["player"], name="old bot")
    html = unescape(client_as("player").post(revoke_url(row.pk), follow=True).content.decode())
    assert "Token “old bot” revoked." in html
    assert not AccessToken.objects.filter(pk=row.pk).exists()


def test_another_users_token_is_404_and_stays(client_as, users):
    row, _ = tokens.make_token(user=users["other_player"], name="their bot")
    assert client_as("player").post(revoke_url(row.pk)).status_code == 404
    assert client_as("player").post(revoke_url(10**17)).status_code == 404
    assert AccessToken.objects.filter(pk=row.pk).exists()


def test_get_is_405_and_changes_nothing(client_as, users):
    row, _ = tokens.make_token(user=users["player"], name="bot")
    client = client_as("player")
    assert client.get(MAKE, {"name": "x"}).status_code == 405
    assert client.get(revoke_url(row.pk)).status_code == 405
    assert list(AccessToken.objects.values_list("pk", flat=True)) == [row.pk]


def test_an_anonymous_visitor_is_sent_to_log_in(client_as, users):
    row, _ = tokens.make_token(user=users["player"], name="bot")
    client = client_as("anonymous")
    for url in (MAKE, revoke_url(row.pk)):
        response = client.post(url, {"name": "x"})
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert list(AccessToken.objects.values_list("pk", flat=True)) == [row.pk]


def test_a_token_says_whose_it_is_and_is_not_guessable():
    made = {tokens.new_token() for _ in range(50)}
    assert len(made) == 50
    assert all(token.startswith("courier_") and len(token) == 8 + 43 for token in made)
