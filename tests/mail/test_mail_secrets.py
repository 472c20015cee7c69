"""Hidden information never travels by mail. Two campaigns are played through their mail:
phases opening and resolving, reminders, press mailed each message or as a digest,
answers by mail to orders and press and the answers Courier writes back. Then every mail
queued is read as its reader's client reads it (every header, the text part and the
HTML part), and none holds what its reader may not read on the site:

- Pax Baltica (wooden blocks): a player never reads the other side's block names, nor a
  log line about them that he reads only redacted (where their strengths are); an
  observer reads no side's;
- Empires in Arms: a power's orders are sealed while the phase is open (here its notes
  for the GM, and the lines it answered by mail), and private press is read by its
  channel's powers only: not by the other players, the GM or an observer.
"""

from __future__ import annotations

import email
import html
from datetime import timedelta
from email import policy

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.core import watching
from campaign.jobs import mail_replies
from campaign.models import Event, MailChoice, PressMail, Seat
from campaign.notify import delivery
from campaign.play import services
from campaign.presenters import visible_text
from campaign.press import press, press_mail
from rules.gm_orders import KEY as GM_LINES
from rules.pax_baltica.models import Block
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users
from tests.mail.test_replies import DELIVER, forged, reply
from tests.services.test_notifications import resolve, with_mail
from tests.services.test_scheduling import START, give_orders, set_deadline, tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(time_machine):
    """The frozen clock, at START; clock(hours=…) moves it on from where it is."""
    time_machine.move_to(START, tick=False)
    return lambda **delta: time_machine.move_to(timezone.now() + timedelta(**delta), tick=False)


# -- the mail ---------------------------------------------------------------------------


def queued() -> list[dict]:
    """Every mail queued so far, as campaign/notify/outgoing.py wrote it."""
    rows = DBTaskResult.objects.filter(task_path=DELIVER)
    return [row.args_kwargs["args"][0] for row in rows]


def readable(mail: dict) -> str:
    """All that the mail's reader can read, as a client parses the message sent: every
    header, the text part and the HTML part (its entities decoded)."""
    raw = delivery.multipart(mail).message().as_bytes()
    parsed = email.message_from_bytes(raw, policy=policy.default)
    parts = [f"{name}: {value}" for name, value in parsed.items()]
    parts.append(parsed.get_body(("plain",)).get_content())
    parts.append(html.unescape(parsed.get_body(("html",)).get_content()))
    return "\n".join(parts)


def read_by(user) -> str:
    """Every mail queued to the user, as readable() reads them."""
    mails = [readable(mail) for mail in queued() if mail["to"] == user.email]
    assert mails, f"no mail to {user}"
    return "\n\n".join(mails)


def mail_to(user, containing: str) -> dict:
    """The one mail queued to the user whose subject or text says ``containing``."""
    mails = [m for m in queued() if m["to"] == user.email]
    (found,) = [m for m in mails if containing in m["subject"] + m["text"]]
    return found


def leaked(text: str, secrets) -> list[str]:
    return sorted(secret for secret in secrets if secret in text)


def seat_of(campaign, user) -> Seat:
    return Seat.objects.select_related("campaign", "power", "user").get(
        campaign=campaign, user=user
    )


def write(capture, campaign, user, text: str, **to) -> None:
    """The user writes press; its commit mails it."""
    with capture(execute=True):
        press.post_message(seat=seat_of(campaign, user), text=text, **to)


def receive(capture, raw: bytes) -> str:
    """Courier receives a reply; its commit mails what it wrote (press)."""
    with capture(execute=True):
        return mail_replies.receive(raw)


def seat_user(campaign, power_key: str, user, gm) -> None:
    seat = Seat.objects.get(campaign=campaign, power__key=power_key)
    services.assign_seat(seat=seat, user=user, actor=gm)


# -- Pax Baltica: the blocks of the other side -------------------------------------------


def hidden_from(campaign, seat) -> list[str]:
    """What the seat may not read: the block names its viewer does not see, and the full
    text of each log line it reads only redacted."""
    rules = campaign.rules
    world = rules.load_world(campaign)
    viewer = watching.seat_viewer(seat, rules, world)
    names = [b.name for b in world.blocks.values() if viewer is not None and b.nation not in viewer]
    lines = [
        visible_text(event, None)
        for event in Event.objects.filter(campaign=campaign).exclude(audience=[])
        if visible_text(event, viewer) != visible_text(event, None)
    ]
    return names + lines


@pytest.mark.long
def test_no_pax_baltica_mail_names_a_block_its_reader_does_not_see(
    clock, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    campaign = make_pb_campaign(territories=14)
    users = with_mail(seat_users(campaign, "sweden", "russia"))
    sweden, russia, saxony = users["player"], users["other_player"], users["outsider"]
    seat_user(campaign, "saxony", saxony, users["gm"])
    for user in (sweden, russia, saxony):
        MailChoice.objects.create(user=user, campaign=campaign, press=PressMail.EACH)

    # Recruitment: reminders, press, answers by mail.
    set_deadline(campaign, 48, users)
    clock(hours=24)
    tick()
    write(capture, campaign, sweden, "Sweden fears no coalition.", to=press.PUBLIC)
    coalition_plan = "Sheremetev and Pyotr I march on Narva; Schulenburg waits in the pool."
    write(capture, campaign, russia, coalition_plan, to="russia+saxony")
    answer = reply(mail_to(saxony, coalition_plan), "August II holds Lausitz.")
    assert receive(capture, answer) == "press posted"
    reminder = mail_to(sweden, "left")
    refused = "Place new blocks in (choice 1): Kurland\nCavalry: 3"
    assert mail_replies.receive(reply(reminder, refused)) == "orders refused"
    wachtmeister = "Wachtmeister (fleet, 3/4) in Livland: 1\nREADY"
    assert mail_replies.receive(reply(reminder, wachtmeister)) == "orders saved"
    saxon_draw = "Blocks to draw from the pool: 1\nPlace new blocks in (choice 1): Lausitz\nREADY"
    assert mail_replies.receive(reply(mail_to(saxony, "left"), saxon_draw)) == "orders saved"
    assert mail_replies.receive(reply(mail_to(russia, "left"), "READY")) == "orders saved"
    wrong = reply(reminder, "READY", to=forged(reminder["reply_to"]))
    assert mail_replies.receive(wrong) == "forged"

    # The digest, then two phases resolved and opened.
    MailChoice.objects.filter(user=sweden).update(press=PressMail.DIGEST)
    write(capture, campaign, russia, "Menshikov stays before Narva.", to="russia+saxony")
    clock(hours=7)
    assert press_mail.send_digests() >= 1
    resolve(campaign, users, capture)  # recruitment; the actions phase opens
    opened = mail_to(sweden, "is open")
    assert mail_replies.receive(reply(opened, "Cavalry: 3\nREADY")) == "orders refused"
    resolve(campaign, users, capture)  # actions

    seats = Seat.objects.filter(campaign=campaign, user__isnull=False)
    for seat in seats.select_related("campaign", "power", "user"):
        if seat.role != Seat.Role.GM:
            secrets = hidden_from(campaign, seat)
            assert leaked(read_by(seat.user), secrets) == [], seat
    # What each reader may read does travel: his own blocks, his side's press.
    assert "Wachtmeister (fleet, 3/4) in Livland" in read_by(sweden)
    assert "Sheremetev" in read_by(saxony) and coalition_plan in read_by(saxony)
    assert Block.objects.filter(campaign=campaign, name="Wachtmeister", strength=4).exists()


# -- Empires in Arms: sealed orders and private press ------------------------------------


def sealed(power_key: str) -> str:
    """The note for the GM that the power's orders carry: its own, sealed from the others."""
    return f"Sealed note of {power_key}"


def note(key: str) -> dict:
    """The payload's part for the GM: the power's sealed note."""
    return {GM_LINES: {"lines": [], "note": sealed(key)}}


@pytest.mark.long
def test_no_empires_in_arms_mail_shows_sealed_orders_or_private_press_to_others(
    clock, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    campaign = make_eia_campaign(options={"attempt_limit": "per_target"})
    users = with_mail(seat_users(campaign))
    france, britain, spain = users["player"], users["other_player"], users["outsider"]
    seat_user(campaign, "spain", spain, users["gm"])
    for user in (france, britain, spain):
        MailChoice.objects.create(user=user, campaign=campaign, press=PressMail.EACH)
    resolve(campaign, users, capture)  # the peace step; the revolt step opens
    set_deadline(campaign, 48, users)

    # Orders: each power's note for the GM saved on the page, answers by mail.
    for key, targets in (("france", ["minor-1"]), ("great_britain", ["minor-0"])):
        give_orders(campaign, key, ready=False, payload={"targets": targets} | note(key))
    give_orders(campaign, "spain", ready=False, payload=note("spain"))
    for user, key in ((france, "france"), (britain, "great_britain")):
        mail = mail_to(user, "is open")
        refused = f"Revolt attempts: Minor 003\nPlan: {sealed(key)} by mail"
        assert mail_replies.receive(reply(mail, refused)) == "orders refused"
    france_mail = mail_to(france, "is open")
    assert mail_replies.receive(reply(france_mail, "Revolt attempts: Minor 005")) == "orders saved"
    wrong = reply(france_mail, "READY", to=forged(france_mail["reply_to"]))
    assert mail_replies.receive(wrong) == "forged"
    clock(hours=24)
    tick()  # reminders to the powers not ready

    # Press: private between Great Britain and Spain, public, each message and digests.
    private = "Britain pays Spain to rise in Old Castile."
    write(capture, campaign, britain, private, to=press.PRIVATE_CHOICE, chosen=["spain"])
    private_answer = "Spain takes the gold and will rise."
    assert receive(capture, reply(mail_to(spain, private), private_answer)) == "press posted"
    write(capture, campaign, france, "France wishes everyone a good winter.", to=press.PUBLIC)
    answer = reply(mail_to(britain, "good winter"), "Britain answers in public.")
    assert receive(capture, answer) == "press posted"
    MailChoice.objects.filter(user=france).update(press=PressMail.DIGEST)
    private_again = "The gold sails from Portsmouth."
    write(capture, campaign, britain, private_again, to=press.PRIVATE_CHOICE, chosen=["spain"])
    clock(hours=7)
    assert press_mail.send_digests() >= 1

    while_open = {user.pk: read_by(user) for user in users.values() if user.email}
    resolve(campaign, users, capture)  # the revolt step; the next opens

    private_press = [private, private_answer, private_again]
    for role, user in users.items():
        readers = {britain, spain}
        kept_from = [] if user in readers else private_press
        assert leaked(read_by(user), kept_from) == [], role
    for user, own in ((france, "france"), (britain, "great_britain"), (spain, "spain")):
        others = [sealed(key) for key in ("france", "great_britain", "spain") if key != own]
        assert leaked(while_open[user.pk], others) == [], own
        assert leaked(read_by(user), others) == [], own
    for user, own in ((france, "france"), (britain, "great_britain")):
        assert sealed(own) in while_open[user.pk]  # his own answer repeats his line
    assert private_answer in read_by(britain)
