"""Private notes (campaign/press/notes.py): every seat keeps its own on the campaign and on its
phases; refusals change nothing; saving logs nothing and leaves the campaign's version;
the notebook in two queries; a reader's download holds their own notes and nobody
else's, and an import reads past them; two saves at once on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from campaign.errors import ServiceError
from campaign.models import Campaign, Event, Note, Phase, Seat
from campaign.press import notes
from campaign.records import archive, rollback
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_eia_phase_services import resolve

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def campaign():
    """Empires in Arms with its peace step resolved: the revolt step is open."""
    campaign = make_eia_campaign()
    resolve(campaign)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def users(campaign):
    return seat_users(campaign)


@pytest.fixture
def past(campaign) -> Phase:
    return Phase.objects.exclude(pk=campaign.phase_id).get(campaign=campaign)


def save(campaign, user, phase_id=None, text="A note") -> Note | None:
    return notes.save_note(campaign_id=campaign.pk, user=user, phase_id=phase_id, text=text)


def texts(campaign, user) -> dict:
    return dict(Note.objects.filter(campaign=campaign, user=user).values_list("phase", "text"))


# -- who keeps notes, and on what ----------------------------------------------------------


@pytest.mark.parametrize("role", ["gm", "player", "other_player", "observer"])
def test_every_seat_keeps_notes_on_the_campaign_and_its_phases(campaign, users, past, role):
    save(campaign, users[role], None, "Watch Prussia")
    save(campaign, users[role], campaign.phase_id, "Revolt in Palatinate?")
    save(campaign, users[role], past.pk, "Peace held")
    assert texts(campaign, users[role]) == {
        None: "Watch Prussia",
        campaign.phase_id: "Revolt in Palatinate?",
        past.pk: "Peace held",
    }


def test_a_replaced_player_keeps_his_notes_and_the_new_player_reads_none(campaign, users):
    save(campaign, users["player"], None, "My plans for France")
    power = Seat.objects.get(campaign=campaign, user=users["player"]).power
    newcomer = User.objects.create_user(f"newcomer-{campaign.pk}")
    Seat.objects.filter(campaign=campaign, power=power).update(user=newcomer)
    former = Seat.objects.create(
        campaign=campaign,
        role=Seat.Role.OBSERVER,
        user=users["player"],
        former_power=power,
        left_at=timezone.now(),
    )
    save(campaign, users["player"], campaign.phase_id, "Watching now")
    seat = Seat.objects.select_related("campaign").get(pk=former.pk)
    book = notes.notebook(seat)
    assert (book.campaign.text, book.current.text) == ("My plans for France", "Watching now")
    theirs = notes.notebook(Seat.objects.select_related("campaign").get(user=newcomer))
    assert (theirs.campaign.text, theirs.current.text, theirs.past) == ("", "", [])


def test_a_user_without_a_seat_keeps_no_notes(campaign, users):
    with pytest.raises(ServiceError, match="seat in this campaign"):
        save(campaign, users["outsider"])
    assert not Note.objects.exists()


def test_a_user_of_another_campaign_keeps_no_notes_on_this_one(campaign):
    other = make_eia_campaign()
    stranger = seat_users(other)["player"]
    with pytest.raises(ServiceError, match="seat in this campaign"):
        save(campaign, stranger)
    assert not Note.objects.exists()


def test_a_phase_of_another_campaign_is_refused(campaign, users):
    other = make_eia_campaign()
    with pytest.raises(ServiceError, match="no such phase"):
        save(campaign, users["player"], other.phase_id)
    with pytest.raises(ServiceError, match="no such phase"):
        save(campaign, users["player"], 10**17)
    assert not Note.objects.exists()


def test_saving_again_replaces_the_note(campaign, users):
    save(campaign, users["player"], campaign.phase_id, "First")
    save(campaign, users["player"], campaign.phase_id, "Second")
    assert texts(campaign, users["player"]) == {campaign.phase_id: "Second"}


@pytest.mark.parametrize("empty", ["", "  \r\n\t "])
def test_an_empty_text_deletes_the_note(campaign, users, empty):
    save(campaign, users["player"], None, "Kept")
    save(campaign, users["player"], campaign.phase_id, "Gone soon")
    assert save(campaign, users["player"], campaign.phase_id, empty) is None
    assert texts(campaign, users["player"]) == {None: "Kept"}
    assert save(campaign, users["player"], None, empty) is None  # and again: nothing to delete
    assert save(campaign, users["player"], None, empty) is None
    assert texts(campaign, users["player"]) == {}


def test_a_note_longer_than_the_cap_is_refused_with_its_length(campaign, users):
    save(campaign, users["player"], None, "Kept")
    with pytest.raises(ServiceError) as refused:
        save(campaign, users["player"], None, "x" * (notes.MAX_LENGTH + 1))
    assert "20,000" in str(refused.value) and "20,001" in str(refused.value)
    assert texts(campaign, users["player"]) == {None: "Kept"}


def test_a_note_at_the_cap_is_kept_counting_a_line_break_as_one(campaign, users):
    lines = "\r\n".join(["x" * 99] * 200)  # 200 × 99 + 199 breaks, with CRLF 20,199
    save(campaign, users["player"], None, lines)
    kept = texts(campaign, users["player"])[None]
    assert kept == lines.replace("\r\n", "\n") and len(kept) <= notes.MAX_LENGTH


def test_saving_logs_nothing_and_leaves_the_campaigns_version(campaign, users):
    before = Campaign.objects.values("version", "state_version").get(pk=campaign.pk)
    events = Event.objects.filter(campaign=campaign).count()
    save(campaign, users["player"], None, "Secret plans")
    save(campaign, users["gm"], campaign.phase_id, "GM's plans")
    save(campaign, users["player"], None, "")
    assert Campaign.objects.values("version", "state_version").get(pk=campaign.pk) == before
    assert Event.objects.filter(campaign=campaign).count() == events
    assert not Event.objects.filter(campaign=campaign, text__contains="plans").exists()


# -- the notebook ----------------------------------------------------------------------


def test_the_notebook_holds_the_campaigns_the_open_phases_and_the_noted_past_phases(
    campaign, users, past
):
    seat = Seat.objects.select_related("campaign").get(campaign=campaign, user=users["player"])
    book = notes.notebook(seat)
    assert (book.campaign.text, book.current.phase_id, book.current.text) == ("", past.pk + 1, "")
    assert book.past == [] and [e.phase_id for e in book.unnoted] == [past.pk]
    save(campaign, users["player"], past.pk, "Then")
    save(campaign, users["other_player"], None, "Not mine")
    book = notes.notebook(seat)
    assert book.campaign.text == "" and book.unnoted == []
    assert [(e.phase_id, e.text) for e in book.past] == [(past.pk, "Then")]
    assert book.past[0].label == "Political phase · peace step (January 1805)"
    assert book.entry(past.pk) is book.past[0] and book.entry(None) is book.campaign
    assert book.entry(10**17) is None


def test_a_campaign_not_started_has_only_the_campaigns_note(users):
    campaign = make_eia_campaign(start=False)
    gm = seat_users(campaign)["gm"]
    seat = Seat.objects.select_related("campaign").get(campaign=campaign, user=gm)
    save(campaign, gm, None, "Before the start")
    book = notes.notebook(seat)
    assert (book.campaign.text, book.current, book.past, book.unnoted) == (
        "Before the start",
        None,
        [],
        [],
    )


def test_the_notebook_reads_in_two_queries_however_many_phases(
    campaign, users, django_assert_num_queries
):
    for _ in range(3):
        resolve(campaign)
        campaign.refresh_from_db()
    for phase in Phase.objects.filter(campaign=campaign):
        save(campaign, users["player"], phase.pk, f"Phase {phase.pk}")
    seat = Seat.objects.select_related("campaign").get(campaign=campaign, user=users["player"])
    with django_assert_num_queries(2):
        book = notes.notebook(seat)
    assert len(book.past) == Phase.objects.filter(campaign=campaign).count() - 1


# -- the reader's download ----------------------------------------------------------------


def test_the_gms_download_holds_the_gms_notes_and_nobody_elses(campaign, users, past):
    save(campaign, users["gm"], campaign.phase_id, "GM now")
    save(campaign, users["gm"], None, "GM on the campaign")
    save(campaign, users["gm"], past.pk, "GM then")
    for role in ("player", "other_player", "observer"):
        save(campaign, users[role], None, f"Note-of-{role}")
    gm = Seat.objects.get(campaign=campaign, role=Seat.Role.GM)
    data = archive.export_campaign(campaign, reader=gm)
    assert data["notes"] == [
        {"phase": None, "text": "GM on the campaign"},
        {"phase": [past.turn, past.position], "text": "GM then"},
        {"phase": [campaign.phase.turn, campaign.phase.position], "text": "GM now"},
    ]
    assert "Note-of-" not in archive.dumps(data)


def test_the_servers_export_holds_no_notes(campaign, users):
    save(campaign, users["gm"], None, "Note-of-gm")
    save(campaign, users["player"], None, "Note-of-player")
    data = archive.export_campaign(campaign)
    assert "notes" not in data and "Note-of-" not in archive.dumps(data)


def test_a_download_without_notes_has_no_notes_section(campaign, users):
    save(campaign, users["player"], None, "Player's own")
    gm = Seat.objects.get(campaign=campaign, role=Seat.Role.GM)
    assert "notes" not in archive.export_campaign(campaign, reader=gm)


def test_an_import_reads_past_the_notes(campaign, users):
    save(campaign, users["gm"], None, "GM's own")
    gm = Seat.objects.get(campaign=campaign, role=Seat.Role.GM)
    data = archive.export_campaign(campaign, reader=gm)
    data["notes"].append({"phase": [99, 99], "text": {"forged": True}})  # read, not checked
    copy = archive.import_campaign(data, name="Copy", by_name=True)
    assert not Note.objects.filter(campaign=copy).exists()
    assert Note.objects.count() == 1
    assert "notes" not in archive.export_campaign(copy, reader=copy.seats.get(role="gm"))


# -- two saves at once ---------------------------------------------------------------------

RACES = 10
TIMEOUT = 30


def race(campaign, user, phase_id, texts: tuple[str, ...]) -> list[Exception]:
    """Each text saved at once as the user's note, each in a thread of its own behind a
    barrier; the errors raised."""
    barrier = threading.Barrier(len(texts))
    errors: list[Exception] = []

    def write(text: str) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            save(campaign, user, phase_id, text)
        except Exception as error:  # noqa: BLE001 (reported by the test)
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_saves_of_one_note_at_once_keep_one_note(on_postgresql):
    """Each time both saves of a new note go through (no IntegrityError): one row, with
    the text of one of them; on the campaign and on a phase in turn."""
    campaign = make_eia_campaign()
    user = seat_users(campaign)["player"]
    for attempt in range(RACES):
        Note.objects.all().delete()
        phase_id = campaign.phase_id if attempt % 2 else None
        assert race(campaign, user, phase_id, ("one", "two")) == []
        assert list(Note.objects.values_list("phase", "text")) in (
            [(phase_id, "one")],
            [(phase_id, "two")],
        )


def test_a_rollback_keeps_the_notes_on_the_phase_it_withdraws(campaign, users, past):
    """Undoing the last resolution withdraws the phase that opened after it: its notes
    move to the phase that opens again, after the note already there."""
    campaign.refresh_from_db()
    withdrawn = campaign.phase_id
    save(campaign, users["player"], past.pk, "on the resolved phase")
    save(campaign, users["player"], withdrawn, "on the phase withdrawn")
    save(campaign, users["gm"], withdrawn, "the GM's")
    rollback.roll_back(campaign_id=campaign.pk, actor=users["gm"])
    assert not Phase.objects.filter(pk=withdrawn).exists()
    assert texts(campaign, users["player"])[past.pk] == (
        "on the resolved phase\n\non the phase withdrawn"
    )
    assert texts(campaign, users["gm"])[past.pk] == "the GM's"
