"""Who hears what: mail when a phase opens, before its deadline (to powers not ready)
and when it is resolved (with the rolls that concern the reader), and the campaign's
webhook (JSON POST) when a phase opens or resolves. Each user chooses what they receive
(Profile). Nothing is sent inside a request: messages are handed to the worker once
the transaction commits, and a failed send is retried there.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import dateformat, translation
from django.utils.translation import gettext

from campaign import delivery, readiness, watching
from campaign.models import Campaign, Event, Phase, Profile, Seat
from campaign.presenters import visible_text
from rules.translation import localized

REMINDERS = (24, 1)  # hours before a deadline


def _link(campaign: Campaign) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("campaign:detail", args=[campaign.pk])


def _readers(campaign: Campaign, preference: str) -> list[tuple[Seat, str]]:
    """The seated users with a mail address who want this kind of mail, each with the
    language to write it in (their Profile's, else the site's)."""
    seats = campaign.seats.filter(user__isnull=False).exclude(user__email="")
    seats = seats.select_related("user", "power")
    profiles = {p.user_id: p for p in Profile.objects.filter(user__in=[s.user_id for s in seats])}
    readers = []
    for seat in seats:
        profile = profiles.get(seat.user_id)
        if profile is not None and not getattr(profile, preference):
            continue
        readers.append((seat, getattr(profile, "language", "") or settings.LANGUAGE_CODE))
    return readers


def _mail(seat: Seat, subject: str, body: str) -> None:
    delivery.deliver_mail.enqueue(seat.user.email, subject, body)


def _webhook(campaign: Campaign, event: str, phase: Phase, text: str) -> None:
    if campaign.webhook_url:
        with translation.override(settings.LANGUAGE_CODE):
            name = str(campaign.rules.phase(phase.key).name)
            turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
        payload = {
            "event": event,
            "campaign": campaign.name,
            "turn": turn,
            "phase": name,
            "deadline": phase.deadline.isoformat() if phase.deadline else None,
            "url": _link(campaign),
            "text": text,
        }
        delivery.deliver_webhook.enqueue(campaign.webhook_url, payload)


def phase_opened(campaign: Campaign, phase: Phase) -> None:
    """After commit: tell the players and the webhook that a phase is open."""
    transaction.on_commit(lambda: _phase_opened(campaign, phase))


def _phase_opened(campaign: Campaign, phase: Phase) -> None:
    readers = _readers(campaign, "mail_phase_opened")
    spec = campaign.rules.phase(phase.key)

    def opened_text() -> str:
        turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
        return gettext("%(turn)s: %(phase)s is open.") % {"turn": turn, "phase": spec.name}

    owing = {power.pk for power in readiness.owing_powers(campaign, phase)} if readers else ()
    for seat, language in readers:
        with translation.override(language):
            when = (
                gettext(" The deadline is %(deadline)s UTC.")
                % {"deadline": utc_date(phase.deadline)}
                if phase.deadline
                else ""
            )
            ask = gettext(" Your orders are awaited.") if seat.power_id in owing else ""
            subject = gettext("[%(campaign)s] %(phase)s is open") % {
                "campaign": campaign.name,
                "phase": spec.name,
            }
            body = f"{opened_text()}{ask}{when}\n\n{_link(campaign)}"
        _mail(seat, subject, body)
    with translation.override(settings.LANGUAGE_CODE):
        text = opened_text()
    _webhook(campaign, "phase_opened", phase, text)


def phase_resolved(campaign: Campaign, phase: Phase) -> None:
    """After commit: tell each player what the phase did, their own rolls first."""
    transaction.on_commit(lambda: _phase_resolved(campaign, phase))


def _phase_resolved(campaign: Campaign, phase: Phase) -> None:
    readers = _readers(campaign, "mail_phase_resolved")
    if not readers and not campaign.webhook_url:
        return
    spec = campaign.rules.phase(phase.key)

    def resolved_text() -> str:
        turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
        return gettext("%(turn)s: %(phase)s is resolved.") % {"turn": turn, "phase": spec.name}

    events = list(Event.objects.filter(phase=phase).select_related("power").order_by("pk"))
    world = campaign.rules.load_world(campaign) if campaign.rules.has_secrets else None
    for seat, language in readers:
        viewer = watching.seat_viewer(seat, campaign.rules, world)
        with translation.override(language):
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
            body = resolved_text() + "\n\n"
            if mine:
                body += gettext("Your rolls and results:") + "\n" + "\n".join(mine) + "\n\n"
            body += (
                gettext("The whole phase:")
                + "\n"
                + "\n".join(line for _, line in lines)
                + f"\n\n{_link(campaign)}"
            )
            subject = gettext("[%(campaign)s] %(phase)s is resolved") % {
                "campaign": campaign.name,
                "phase": spec.name,
            }
        _mail(seat, subject, body)
    with translation.override(settings.LANGUAGE_CODE):
        text = resolved_text()
    _webhook(campaign, "phase_resolved", phase, text)


def send_due_reminders(now: datetime) -> None:
    """24 h and 1 h before a deadline, mail the players whose orders are not ready."""
    phases = Phase.objects.filter(
        status=Phase.Status.OPEN,
        campaign__started_at__isnull=False,  # a deadline runs from the start
        deadline__gt=now,
        deadline__lte=now + timedelta(hours=REMINDERS[0]),
    ).select_related("campaign")
    for phase in phases:
        due = [h for h in REMINDERS if phase.deadline - now <= timedelta(hours=h)]
        fresh = [h for h in due if h not in phase.reminders_sent]
        if fresh:
            _remind(phase, min(fresh))
            Phase.objects.filter(pk=phase.pk).update(
                reminders_sent=sorted({*phase.reminders_sent, *due})
            )


def _remind(phase: Phase, hours: int) -> None:
    campaign = phase.campaign
    if campaign.phase_id != phase.pk:
        return
    late = {p.pk for p in readiness.owing_powers(campaign, phase) if not p.ready}
    spec = campaign.rules.phase(phase.key)
    for seat, language in _readers(campaign, "mail_reminders"):
        if seat.power_id in late:
            with translation.override(language):
                subject = gettext("[%(campaign)s] %(phase)s: %(hours)s h left") % {
                    "campaign": campaign.name,
                    "phase": spec.name,
                    "hours": hours,
                }
                body = gettext(
                    "%(phase)s closes at %(deadline)s UTC and your orders are not marked ready."
                ) % {"phase": spec.name, "deadline": utc_date(phase.deadline)}
            _mail(seat, subject, f"{body}\n\n{_link(campaign)}")


def utc_date(moment) -> str:
    """A moment in UTC as "05 Dec 2026 14:00", its month in the active language."""
    return dateformat.format(moment.astimezone(UTC), "d M Y H:i")
