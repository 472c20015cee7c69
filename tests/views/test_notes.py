"""The notes page (campaign/views/notes.py): every seat reads and writes its own notes,
anyone else finds no page; a note saves in place (HTMX) or by a plain post; bad phases
and long texts are refused with 422 and change nothing; the campaign page and the GM
dashboard link to it."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from campaign.models import Campaign, Note, Phase
from campaign.press import notes
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SEATED = ("player", "other_player", "observer", "gm")


@pytest.fixture
def revolt(campaign, advance_to):
    """The peace step resolved: the revolt step is open."""
    advance_to(campaign, "revolt")
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def past(revolt) -> Phase:
    return Phase.objects.exclude(pk=revolt.phase_id).get(campaign=revolt)


def url(campaign) -> str:
    return reverse("campaign:notes", args=[campaign.pk])


def texts(campaign, user) -> dict:
    return dict(Note.objects.filter(campaign=campaign, user=user).values_list("phase", "text"))


def messages_of(html: str) -> list[str]:
    return [unescape(m) for m in re.findall(r'class="message [^"]*">(.*?)</li>', html)]


def textarea(html: str, key: str) -> str:
    """The text of the note form ``key``'s text box."""
    found = re.search(
        rf'<form[^>]*id="note-{key}".*?<textarea[^>]*>\n?(.*?)</textarea>', html, re.S
    )
    assert found, f"no note form {key!r}"
    return unescape(found.group(1))


# -- who reads the page ----------------------------------------------------------------


@pytest.mark.parametrize("role", SEATED)
def test_every_seat_reads_its_own_notes(revolt, users, client_as, role):
    for each in SEATED:
        text = f"Plan {SEATED.index(each)}"
        notes.save_note(campaign_id=revolt.pk, user=users[each], phase_id=None, text=text)
    response = client_as(role).get(url(revolt))
    assert response.status_code == 200
    html = response.content.decode()
    assert textarea(html, "campaign") == f"Plan {SEATED.index(role)}"
    assert re.findall(r"Plan \d", html) == [f"Plan {SEATED.index(role)}"]
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_anonymous_is_sent_to_log_in(revolt, client_as):
    for response in (
        client_as("anonymous").get(url(revolt)),
        client_as("anonymous").post(url(revolt), {"text": "x"}),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not Note.objects.exists()


def test_a_user_without_a_seat_finds_no_page(revolt, client_as):
    outsider = client_as("outsider")
    assert outsider.get(url(revolt)).status_code == 404
    assert outsider.post(url(revolt), {"text": "x"}).status_code == 404
    assert outsider.post(url(revolt), {"text": "x"}, **HTMX).status_code == 404
    assert not Note.objects.exists()


def test_a_player_of_another_campaign_finds_no_page(revolt, client):
    other = make_eia_campaign()
    client.force_login(seat_users(other)["player"])
    assert client.get(url(revolt)).status_code == 404
    assert client.post(url(revolt), {"text": "x"}).status_code == 404
    assert client.get(url(other)).status_code == 200
    assert not Note.objects.exists()


def test_a_campaign_that_does_not_exist_is_404(client_as):
    assert client_as("player").get(reverse("campaign:notes", args=[10**17])).status_code == 404


# -- the page --------------------------------------------------------------------------


def test_the_page_shows_the_campaigns_note_then_the_open_phases_then_the_past_ones(
    revolt, users, client_as, past
):
    player = users["player"]
    notes.save_note(campaign_id=revolt.pk, user=player, phase_id=None, text="Campaign")
    notes.save_note(campaign_id=revolt.pk, user=player, phase_id=past.pk, text="Then")
    html = client_as("player").get(url(revolt)).content.decode()
    order = re.findall(r'<form[^>]*id="note-(\w+)"', html)
    assert order == ["campaign", str(revolt.phase_id), str(past.pk)]
    assert textarea(html, str(revolt.phase_id)) == ""
    assert textarea(html, str(past.pk)) == "Then"
    assert "revolt step (January 1805) · open" in unescape(html)
    assert 'id="note-new"' not in html  # every earlier phase has a note


def test_an_earlier_phase_without_a_note_is_offered_for_a_new_one(revolt, client_as, past):
    html = client_as("player").get(url(revolt)).content.decode()
    new = html[html.index('id="note-new"') :]
    assert f'<option value="{past.pk}">' in new
    assert f'value="{revolt.phase_id}"' not in new


def test_the_page_reads_in_few_queries_however_many_phases(
    revolt, users, client_as, advance_to, django_assert_max_num_queries
):
    client = client_as("player")
    client.get(url(revolt))
    with django_assert_max_num_queries(8):
        client.get(url(revolt))
    advance_to(revolt, "conquest")
    for phase in Phase.objects.filter(campaign=revolt):
        notes.save_note(campaign_id=revolt.pk, user=users["player"], phase_id=phase.pk, text="x")
    with django_assert_max_num_queries(8):
        assert client.get(url(revolt)).status_code == 200


def test_the_campaign_page_and_the_gm_dashboard_link_to_it(revolt, client_as):
    link = f'href="{url(revolt)}"'
    for role in SEATED:
        assert (
            link
            in client_as(role).get(reverse("campaign:detail", args=[revolt.pk])).content.decode()
        )
    assert link in client_as("gm").get(reverse("campaign:gm", args=[revolt.pk])).content.decode()


# -- saving ----------------------------------------------------------------------------


def test_a_plain_post_saves_and_comes_back_to_the_note(revolt, users, client_as):
    client = client_as("observer")
    response = client.post(url(revolt), {"phase": revolt.phase_id, "text": "Watching Spain"})
    assert response.status_code == 302
    assert response["Location"] == f"{url(revolt)}#note-{revolt.phase_id}"
    assert texts(revolt, users["observer"]) == {revolt.phase_id: "Watching Spain"}
    html = client.get(response["Location"]).content.decode()
    assert messages_of(html) == ["Note saved."]
    assert textarea(html, str(revolt.phase_id)) == "Watching Spain"


def test_htmx_saves_in_place_answering_the_notes_form(revolt, users, client_as, past):
    response = client_as("gm").post(url(revolt), {"phase": past.pk, "text": "Peace <held>"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(
        f'<form method="post" action="{url(revolt)}" id="note-{past.pk}"'
    )
    assert "<html" not in html and "Note saved." in html
    assert textarea(html, str(past.pk)) == "Peace <held>"
    assert "Peace <held>" not in html  # escaped
    assert texts(revolt, users["gm"]) == {past.pk: "Peace <held>"}


def test_an_empty_text_deletes_the_note(revolt, users, client_as):
    client = client_as("player")
    client.post(url(revolt), {"phase": "", "text": "Soon gone"}, **HTMX)
    response = client.post(url(revolt), {"phase": "", "text": "   "}, **HTMX)
    assert response.status_code == 200 and "Note deleted." in response.content.decode()
    assert texts(revolt, users["player"]) == {}
    response = client.post(url(revolt), {"text": ""}, follow=True)
    assert messages_of(response.content.decode()) == ["Note deleted."]


def test_saving_leaves_the_campaigns_version(revolt, client_as):
    before = Campaign.objects.values("version", "state_version").get(pk=revolt.pk)
    client_as("player").post(url(revolt), {"text": "Private"}, **HTMX)
    assert Campaign.objects.values("version", "state_version").get(pk=revolt.pk) == before


# -- refusals ----------------------------------------------------------------------------


def bad_phases(revolt) -> dict:
    other = make_eia_campaign()
    return {
        "no such phase": (10**17, "This campaign has no such phase"),
        "another campaign's phase": (other.phase_id, "This campaign has no such phase"),
        "not a number": ("x1", "Enter a whole number"),
        "negative": ("-3", "greater than or equal to 1"),
        "huge": ("9" * 40, "This campaign has no such phase"),
    }


def test_a_bad_phase_is_refused_with_422_and_changes_nothing(revolt, users, client_as):
    client = client_as("player")
    for label, (phase, reason) in bad_phases(revolt).items():
        response = client.post(url(revolt), {"phase": phase, "text": "Lost"})
        assert response.status_code == 422, label
        said = " ".join(messages_of(response.content.decode()))
        assert "Your note was not saved." in said and reason in said, label
        response = client.post(url(revolt), {"phase": phase, "text": "Lost"}, **HTMX)
        assert response.status_code == 422, label
        assert reason in unescape(response.content.decode()), label
    assert not Note.objects.exists()


def test_too_long_a_note_is_refused_and_the_text_kept_in_its_form(revolt, users, client_as):
    client = client_as("player")
    client.post(url(revolt), {"phase": revolt.phase_id, "text": "Kept"}, **HTMX)
    long = "y" * (notes.MAX_LENGTH + 5)
    response = client.post(url(revolt), {"phase": revolt.phase_id, "text": long})
    assert response.status_code == 422
    html = response.content.decode()
    assert messages_of(html) == ["Your note was not saved."]
    assert textarea(html, str(revolt.phase_id)) == long
    assert "at most 20,000 characters; this one has 20,005" in unescape(html)
    assert html.count('id="id_note-') == len(set(re.findall(r'id="(id_note-[^"]+)"', html)))
    response = client.post(url(revolt), {"phase": revolt.phase_id, "text": long}, **HTMX)
    assert response.status_code == 422
    assert "this one has 20,005" in unescape(response.content.decode())
    assert texts(revolt, users["player"]) == {revolt.phase_id: "Kept"}


def test_a_refused_new_note_on_an_earlier_phase_comes_back_in_the_new_form(revolt, client_as, past):
    long = "z" * (notes.MAX_LENGTH + 1)
    response = client_as("player").post(url(revolt), {"phase": past.pk, "text": long})
    assert response.status_code == 422
    html = response.content.decode()
    new = html[html.index('id="note-new"') :]
    assert f'<option value="{past.pk}" selected>' in new
    assert textarea(html, "new") == long
