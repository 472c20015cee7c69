"""Answers by mail. A mail that invites an answer is sent with a reply address that says
who answers about what (campaign/notify/mail_tokens.py); a reply reaches ``receive`` by the
sending service's inbound webhook (django-anymail's ``inbound`` signal) or by `manage.py
receive_mail` (an MTA's pipe), and goes through the same services as the pages:

- a reply to a press mail is written to the same channel, as the replier's power;
- a reply to a "your orders" mail gives the orders written in it, one per line as the mail
  showed them (campaign/notify/order_text.py), READY marking them ready, validated by the same
  order form as the page: every line is answered, accepted or refused with its reason,
  and nothing is saved when any line is refused.

Nothing is done for a mail that is automatic (an auto-reply, a bounce: dropped without a
word, so that two robots never loop), unreadable, too large, received before (its
Message-ID), sent to no reply address of this site or a forged or expired one, from
another address than the token's user's, for a seat he no longer holds or a phase that
has closed; to each of these a person who answered Courier's mail, or has an account
here, gets at most one polite answer a day (a stranger's mail, spam, gets none).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from campaign.core.changes import locked_campaign
from campaign.errors import ServiceError
from campaign.jobs import mail_reading
from campaign.models import Channel, Phase, ReceivedMail, RefusalAnswered, Seat
from campaign.notify import delivery, mail_orders, mail_tokens, order_text, outgoing
from campaign.notify.mail_tokens import Purpose
from campaign.notify.notifications import campaign_link, orders_answer
from campaign.play.services import submit_orders
from campaign.press import press
from courier import throttling

MOST_ORDER_LINES = 300  # in one answer giving orders (the form's lines and their notes)
LONGEST_LINE = 2000  # characters in one of its lines
ANSWERS_AN_HOUR = 20  # answers to orders by mail one user receives, at most
ANSWER_WINDOW = 60 * 60  # seconds
STALE_RECEPTION = timedelta(minutes=10)  # a mail received but not acted on in this time


class MailRefused(ServiceError):
    """The mail is not acted on: ``outcome`` says what was done, in a word; the message is
    the polite answer, written when asked (``why``, in the reader's language)."""

    def __init__(self, outcome: str, why: Callable[[], str]):
        super().__init__(outcome)
        self.outcome, self.why = outcome, why

    def __str__(self) -> str:
        return self.why()


def receive(raw: bytes, *, envelope_sender: str | None = None, envelope_recipient: str = "") -> str:
    """Act on one received mail (RFC 5322 bytes); returns what was done, in a word."""
    oversized = len(raw) > settings.MAIL_REPLY_MAX_BYTES
    try:
        incoming = mail_reading.read(
            raw[: settings.MAIL_REPLY_MAX_BYTES],
            envelope_sender=envelope_sender,
            envelope_recipient=envelope_recipient,
        )
    except mail_reading.UnreadableMail:
        return "unreadable"
    if incoming.automatic:
        return "automatic"
    key = hashlib.sha256(incoming.message_id.encode() if incoming.message_id else raw).hexdigest()
    try:
        if oversized:
            raise MailRefused("oversized", _too_large)
        _forget_if_never_acted_on(key)
        with transaction.atomic():
            record = ReceivedMail.objects.create(key=key, sender=incoming.sender[:254], outcome="")
    except IntegrityError:
        _answer_refused(incoming, MailRefused("replayed", _received_before))
        return "replayed"
    except MailRefused as refused:
        _answer_refused(incoming, refused)
        return refused.outcome
    try:
        outcome = _act(incoming, record)
    except MailRefused as refused:
        _answer_refused(incoming, refused)
        outcome = refused.outcome
    except Exception:  # not acted on (the database gave up): acted on when delivered again
        ReceivedMail.objects.filter(pk=record.pk).delete()
        raise
    ReceivedMail.objects.filter(pk=record.pk).update(outcome=outcome)
    return outcome


def _forget_if_never_acted_on(key: str) -> None:
    """A mail received long ago but never acted on (the process died meanwhile) is not
    received: its redelivery is acted on, not refused as a replay."""
    stale = timezone.now() - STALE_RECEPTION
    ReceivedMail.objects.filter(key=key, outcome="", received_at__lt=stale).delete()


def _act(incoming: mail_reading.Incoming, record: ReceivedMail) -> str:
    try:
        token = mail_tokens.reply_token(incoming.recipients)
    except mail_tokens.TokenRefused as refusal:
        raise MailRefused(refusal.reason, _not_an_answer) from None
    user = get_user_model().objects.filter(pk=token.user_id, is_active=True).first()
    if user is None or not user.email or user.email.casefold() != incoming.sender.casefold():
        raise MailRefused("other sender", _other_sender)
    ReceivedMail.objects.filter(pk=record.pk).update(user=user)
    if token.purpose == Purpose.ORDERS:
        lines = incoming.text.splitlines()
        if len(lines) > MOST_ORDER_LINES or any(len(line) > LONGEST_LINE for line in lines):
            raise MailRefused("too long", _too_many_lines)
        return _orders(user, token.target, incoming.text)
    if token.purpose == Purpose.PRESS:
        return _press(user, token.target, incoming.text)
    raise MailRefused("forged", _not_an_answer)


# -- orders -----------------------------------------------------------------------------


def _orders(user, phase_id: int, text: str) -> str:
    phase = Phase.objects.select_related("campaign").filter(pk=phase_id).first()
    seat = phase and _seat(user, phase.campaign_id, playing=True)
    if seat is None:
        raise MailRefused("no seat", _no_seat)
    campaign = phase.campaign
    if campaign.phase_id != phase.pk or phase.status != Phase.Status.OPEN:
        raise MailRefused("closed", _closed)
    form_class = campaign.rules.hooks.phase(phase.key).order_form
    with outgoing.reading_as(user), transaction.atomic():
        if form_class.reads_saved_orders:  # allies saving at once take turns, as on the page
            locked_campaign(campaign.pk)
        world = campaign.rules.load_world(campaign)
        reading = order_text.read(mail_orders.order_form(campaign, phase, seat.power, world), text)
        bound = mail_orders.order_form(campaign, phase, seat.power, world, reading.data)
        valid = bound.is_valid()
        lines = order_text.answered(reading, bound)
        refused = not valid or any(line.refusal for line in lines) or not lines
        if not refused:
            payload = mail_orders.payload_with_lines_kept(phase, seat.power, bound.payload())
            try:
                submit_orders(
                    seat=seat, phase_id=phase.pk, payload=payload, ready=reading.ready, actor=user
                )
            except ServiceError as error:
                reason = str(error)
                raise MailRefused("closed", lambda: reason) from None
        errors = [*bound.non_field_errors(), *_unnamed_errors(bound, lines)]
    _answer_orders(seat, phase, lines, errors, saved=not refused, ready=reading.ready)
    return "orders refused" if refused else "orders saved"


def _unnamed_errors(bound, lines) -> list[str]:
    """The errors of fields no line of the answer named (a kept value no longer valid)."""
    named = {line.field for line in lines}
    return [
        f"{bound.fields[name].label}: {' '.join(errors)}"
        for name, errors in bound.errors.items()
        if name in bound.fields and name not in named
    ]


def _answer_orders(seat: Seat, phase: Phase, lines, errors, *, saved: bool, ready: bool) -> None:
    def write() -> outgoing.Letter:
        if saved:
            verdict = (
                gettext("Your orders were saved and marked ready.")
                if ready
                else gettext("Your orders were saved as a draft.")
            )
        elif not lines:
            verdict = gettext("Your answer held no orders: nothing was saved.")
        else:
            verdict = gettext("Nothing was saved: correct the refused lines and answer again.")
        shown = [
            gettext("refused: %(line)s — %(why)s") % {"line": line.text, "why": line.refusal}
            if line.refusal
            else gettext("accepted: %(line)s") % {"line": line.text}
            for line in lines
        ]
        sections = [(gettext("Your lines:"), shown)] if shown else []
        if errors:
            sections.append((gettext("Your orders as a whole:"), [str(e) for e in errors]))
        return outgoing.Letter(
            subject=gettext("[%(campaign)s] Your orders by mail")
            % {"campaign": phase.campaign.name},
            paragraphs=[verdict],
            sections=sections,
            link=campaign_link(phase.campaign),
        )

    answered = throttling.counted(f"orders-answers:{seat.user_id}", ANSWER_WINDOW)
    if answered > ANSWERS_AN_HOUR:  # a robot answering each answer: the loop stops here
        return
    answer = None if saved and ready else orders_answer(phase)
    outgoing.send(seat.user, write, campaign=phase.campaign, answer=answer)


# -- press ------------------------------------------------------------------------------


def _press(user, channel_id: int, text: str) -> str:
    channel = Channel.objects.select_related("campaign").filter(pk=channel_id).first()
    seat = channel and _seat(user, channel.campaign_id, playing=False)
    if seat is None:
        raise MailRefused("no seat", _no_seat)
    if not text.strip():
        raise MailRefused("empty", _empty_press)
    try:
        with outgoing.reading_as(user):
            press.post_message(seat=seat, to=channel.key, text=text)
    except ServiceError as error:
        with outgoing.reading_as(user):
            reason = str(error)
        raise MailRefused("press refused", lambda: reason) from None
    return "press posted"


def _seat(user, campaign_id: int, *, playing: bool) -> Seat | None:
    """The user's seat in the campaign: one with a power to give orders, else any that
    writes press (not an observer's)."""
    seats = Seat.objects.select_related("campaign", "power", "user").filter(
        campaign_id=campaign_id, user=user
    )
    seats = seats.exclude(role=Seat.Role.OBSERVER)
    if playing:
        seats = seats.filter(power__isnull=False)
    return seats.order_by("pk").first()


# -- polite refusals --------------------------------------------------------------------


def _answer_refused(incoming: mail_reading.Incoming, refused: MailRefused) -> None:
    """Tell the sender why nothing was done, at most once a day per address: a sender
    who answered a mail Courier wrote (its reply address is genuine, if expired), or has
    an account here. Anyone else's mail (spam to the reply domain, its sender forged) is
    not answered, so that Courier never mails an address that did not write to it."""
    sender = incoming.sender.strip().casefold()[:254]
    if not sender or "@" not in sender:
        return
    user = get_user_model().objects.filter(email__iexact=sender, is_active=True).first()
    if user is None and not _answers_courier(incoming):
        return
    try:
        with transaction.atomic():
            RefusalAnswered.objects.create(sender=sender, day=timezone.now().date())
    except IntegrityError:
        return
    language = outgoing.reading_as(user) if user else translation.override(settings.LANGUAGE_CODE)
    with language:
        letter = outgoing.Letter(
            subject=gettext("Re: %(subject)s") % {"subject": incoming.subject}
            if incoming.subject
            else gettext("[Courier] Your mail"),
            paragraphs=[
                str(refused),
                gettext("Courier answers such mail at most once a day."),
            ],
            link=outgoing.site_url("/"),
        )
        delivery.deliver_mail.enqueue(outgoing.compose(sender, letter))


def _answers_courier(incoming: mail_reading.Incoming) -> bool:
    """Whether the mail was sent to a reply address Courier wrote (its time over or not)."""
    try:
        mail_tokens.reply_token(incoming.recipients)
    except mail_tokens.TokenRefused as refusal:
        return refusal.reason == "expired"
    return True


def _too_many_lines() -> str:
    return gettext(
        "Your answer has too many lines, or too long a line, to be orders: answer with the "
        "order lines alone."
    )


def _too_large() -> str:
    return gettext("Your mail is too large for Courier to read: answer with the text alone.")


def _received_before() -> str:
    return gettext("Courier has already received this mail; it did not act on it again.")


def _not_an_answer() -> str:
    return gettext(
        "Courier could not tell what your mail answers: its address is not one Courier "
        "wrote, or it is too old. Answer the latest mail Courier sent you, or use the site."
    )


def _other_sender() -> str:
    return gettext(
        "This address answers mail sent to another address: answer from the address the "
        "mail was sent to."
    )


def _no_seat() -> str:
    return gettext("You no longer hold a seat that could answer this mail.")


def _closed() -> str:
    return gettext("The phase these orders were for has closed: nothing was saved.")


def _empty_press() -> str:
    return gettext("Your answer held no text to write: nothing was written.")


def inbound_received(sender, event, esp_name: str, **kwargs) -> None:
    """django-anymail's ``inbound`` signal: a mail the sending service received for us."""
    message = event.message
    receive(
        message.as_bytes(),
        envelope_sender=message.envelope_sender,
        envelope_recipient=message.envelope_recipient or "",
    )
