"""Who hears what: mail when a phase opens (with the orders it awaits, to be answered by
mail) and when it is resolved (with the rolls that concern the reader), and the
campaign's webhook (in its chat's format: campaign/notify/chat_formats.py) when a phase opens or
resolves. Each user chooses what mail each campaign sends them (MailChoice); the
reminders before a deadline are campaign/notify/reminders.py's. Nothing is sent inside a
request: messages are handed to the worker once the transaction commits, and a failed
send is retried there.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from campaign.core import readiness, watching
from campaign.errors import ServiceError
from campaign.models import Campaign, Event, MailChoice, MailKind, Phase, PushSubscription, Seat
from campaign.notify import chat_formats, delivery, mail_orders, order_text, outgoing, push
from campaign.notify.chat_formats import ChatMessage
from campaign.notify.mail_tokens import Purpose
from campaign.presenters import visible_text
from courier import throttling
from rules.translation import localized

# Test messages one campaign's webhook may be sent in TESTS_WINDOW seconds
TESTS_LIMIT, TESTS_WINDOW = 5, 10 * 60
# The kinds of news that also go to a user's devices (the press is pushed by press_mail)
PUSHED = {MailKind.YOUR_TURN, MailKind.REMINDERS}


def campaign_link(campaign: Campaign) -> str:
    """The campaign page's address, as mail links to it."""
    return outgoing.site_url(reverse("campaign:detail", args=[campaign.pk]))


def readers(campaign: Campaign, kind: str) -> list[Seat]:
    """The seated users who want this kind of mail from the campaign and can be reached: by
    a mail address, or for a kind that is pushed, by a device that takes Web Push."""
    seats = campaign.seats.filter(user__isnull=False, user__is_active=True)
    if kind in PUSHED and push.enabled():
        device = Exists(PushSubscription.objects.filter(user=OuterRef("user")))
        seats = seats.filter(~Q(user__email="") | device)
    else:
        seats = seats.exclude(user__email="")
    seats = list(seats.select_related("user", "power"))
    choices = MailChoice.of_users(campaign.pk, {seat.user_id for seat in seats})
    return [seat for seat in seats if choices[seat.user_id].wants(kind)]


def orders_answer(phase: Phase) -> outgoing.Answer:
    """An answer that gives the orders of the phase."""
    return outgoing.Answer(
        Purpose.ORDERS,
        phase.pk,
        lambda: gettext(
            "Answer this mail to give your orders: one order per line, as written below, "
            "and READY on a line of its own to mark them ready."
        ),
    )


def _webhook(campaign: Campaign, event: str, phase: Phase, text: str) -> None:
    if campaign.webhook_url:
        with translation.override(settings.LANGUAGE_CODE):
            message = chat_message(campaign, event, phase, text)
        send_chat(campaign, message)


def chat_message(campaign: Campaign, event: str, phase: Phase | None, text: str) -> ChatMessage:
    """The webhook's news of ``phase`` (None: of no phase), in the active language."""
    return ChatMessage(
        event=event,
        campaign=campaign.name,
        turn=localized(campaign.rules.turn_label(phase.turn, campaign.setup)) if phase else "",
        phase=str(campaign.rules.phase(phase.key).name) if phase else "",
        deadline=phase.deadline if phase else None,
        url=campaign_link(campaign),
        text=text,
        at=timezone.now(),
        deadline_label=gettext("Deadline"),
    )


def send_chat(campaign: Campaign, message: ChatMessage) -> None:
    """Hand ``message`` to the worker for the campaign's webhook, in its chat's format."""
    body = chat_formats.payload(campaign.webhook_format, message)
    delivery.deliver_webhook.enqueue(campaign.webhook_url, body)


def send_test_message(campaign: Campaign) -> None:
    """A test message to the webhook the GM saved, in the saved format; ServiceError when
    none is saved."""
    if not campaign.webhook_url:
        raise ServiceError(
            gettext("No webhook URL is saved: save one with the schedule first. Nothing was sent.")
        )
    if throttling.counted(f"webhook-test:{campaign.pk}", TESTS_WINDOW) > TESTS_LIMIT:
        raise ServiceError(
            gettext("Courier sent this webhook several test messages just now: wait a few minutes.")
        )
    with translation.override(settings.LANGUAGE_CODE):
        text = gettext("A test message from Courier: this campaign's news will appear here.")
        message = chat_message(campaign, "test", campaign.phase, text)
    send_chat(campaign, message)


def phase_opened(campaign: Campaign, phase: Phase) -> None:
    """After commit: tell the players and the webhook that a phase is open."""
    transaction.on_commit(lambda: _phase_opened(campaign, phase))


def _phase_opened(campaign: Campaign, phase: Phase) -> None:
    seats = readers(campaign, MailKind.YOUR_TURN)
    spec = campaign.rules.phase(phase.key)

    def opened_text() -> str:
        turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
        return gettext("%(turn)s: %(phase)s is open.") % {"turn": turn, "phase": spec.name}

    def deadline_text() -> str:
        return gettext("The deadline is %(deadline)s.") % {
            "deadline": outgoing.moment(phase.deadline)
        }

    owing = {power.pk for power in readiness.owing_powers(campaign, phase)} if seats else ()
    world = campaign.rules.load_world(campaign) if owing else None
    for seat in seats:
        awaited = seat.power_id in owing

        def write(seat=seat, awaited=awaited) -> outgoing.Letter:
            paragraphs = [opened_text()]
            if awaited:
                paragraphs.append(gettext("Your orders are awaited."))
            if phase.deadline:
                paragraphs.append(deadline_text())
            form = mail_orders.order_form(campaign, phase, seat.power, world) if awaited else None
            return outgoing.Letter(
                subject=gettext("[%(campaign)s] %(phase)s is open")
                % {"campaign": campaign.name, "phase": spec.name},
                paragraphs=paragraphs,
                orders=order_text.written(form) if form is not None else "",
                link=campaign_link(campaign),
            )

        answer = orders_answer(phase) if awaited else None
        outgoing.send(seat.user, write, campaign=campaign, kind=MailKind.YOUR_TURN, answer=answer)

    def notice() -> push.Notice:
        return push.Notice(
            title=gettext("[%(campaign)s] Your orders are awaited") % {"campaign": campaign.name},
            body=" ".join([opened_text(), deadline_text() if phase.deadline else ""]).strip(),
            url=campaign_link(campaign),
            tag=f"campaign-{campaign.pk}",
            urgency="high",
        )

    awaited = [seat.user for seat in seats if seat.power_id in owing]
    push.notify(campaign, MailKind.YOUR_TURN, awaited, notice)
    with translation.override(settings.LANGUAGE_CODE):
        text = opened_text()
    _webhook(campaign, "phase_opened", phase, text)


def phase_resolved(campaign: Campaign, phase: Phase) -> None:
    """After commit: tell each player what the phase did, their own rolls first."""
    transaction.on_commit(lambda: _phase_resolved(campaign, phase))


def _phase_resolved(campaign: Campaign, phase: Phase) -> None:
    seats = readers(campaign, MailKind.RESOLVED)
    if not seats and not campaign.webhook_url:
        return
    spec = campaign.rules.phase(phase.key)

    def resolved_text() -> str:
        turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
        return gettext("%(turn)s: %(phase)s is resolved.") % {"turn": turn, "phase": spec.name}

    events = list(Event.objects.filter(phase=phase).select_related("power").order_by("pk"))
    world = campaign.rules.load_world(campaign) if campaign.rules.has_secrets else None
    for seat in seats:
        viewer = watching.seat_viewer(seat, campaign.rules, world)

        def write(seat=seat, viewer=viewer) -> outgoing.Letter:
            lines = [
                (
                    seat.power_id is not None and event.power_id == seat.power_id,
                    f"{event.rule + ' ' if event.rule else ''}{line}",
                )
                for event in events
                if event.kind in (Event.Kind.ROLL, Event.Kind.RULE)
                and (line := visible_text(event, viewer))
            ]
            mine = [line for own, line in lines if own]
            sections = [(gettext("Your rolls and results:"), mine)] if mine else []
            if lines:
                sections.append((gettext("The whole phase:"), [line for _, line in lines]))
            return outgoing.Letter(
                subject=gettext("[%(campaign)s] %(phase)s is resolved")
                % {"campaign": campaign.name, "phase": spec.name},
                paragraphs=[resolved_text()],
                sections=sections,
                link=campaign_link(campaign),
            )

        outgoing.send(seat.user, write, campaign=campaign, kind=MailKind.RESOLVED)
    with translation.override(settings.LANGUAGE_CODE):
        text = resolved_text()
    _webhook(campaign, "phase_resolved", phase, text)
