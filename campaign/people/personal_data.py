"""Personal data: what Courier holds about one user, as one JSON document he downloads
(``export``), and the deletion of his account (``delete_account``).

The download holds his account and preferences, his record, his seats and his time at
each power, the orders he submitted, the answers and inputs he gave, the press he wrote,
his notes, the log lines he is named the actor of (as he reads them: a line whose
audience leaves out his power gives its redacted text), his extensions, seat requests,
GM handovers and requests for a new GM, his mail choices, the reminders mailed to him
and the mails he sent back, his devices (the push service's host only, never the keys),
his calendar address (whether there is one, never the secret), his API tokens (names
and dates, never the token), how far he read each channel, the campaigns he created and
the phases he resolved, and the logins recorded under his user name. Nothing of
another user's: no other player's orders, press or notes, and no field naming another
user (the words of a log line or a message may, as the campaign's pages show them). It costs
the same few queries however many campaigns he is in. (The links and reply addresses
of his mails are signed, not stored: they name an account that is no more once it goes.)

Deleting the account keeps each campaign's history whole and verifiable: his power
seats stay, emptied (the power kept, the seat free for a new player, its invitation link
renewed), and the history's list of who played which power says "former player"; his
orders, rolls and log lines stay; his press keeps its text, or, when he asks, each
message's text becomes ERASED (the rows stay, so threads and counts hold); each campaign
he sat in says so in its log. His observer seats, notes, preferences, record, devices,
calendar address, API tokens, mail choices, seat requests, handovers offered to him,
read markers, recorded logins and every session go. A GM of a campaign that has not
ended is refused, naming the campaigns, until he hands them over, leaves their GM team
or ends them: a campaign never loses its last GM this way.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import ngettext

from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict
from campaign.models import (
    AccessToken,
    CalendarFeed,
    Campaign,
    DecisionRecord,
    Event,
    Extension,
    Handover,
    InputRecord,
    MailChoice,
    Message,
    NewGmRequest,
    Note,
    Order,
    Phase,
    Profile,
    PushSubscription,
    ReadMarker,
    ReceivedMail,
    RefusalAnswered,
    Reliability,
    ReminderSent,
    Seat,
    SeatRequest,
    Tenure,
    Turnout,
)
from campaign.people.forms import DeleteAccountForm
from campaign.play import disorder, lifecycle, tenures
from campaign.presenters import visible_text
from campaign.press.press import ERASED
from rules.text import Text

FORMAT = "courier-personal-data"
VERSION = 1


# -- the download ------------------------------------------------------------------------


def _campaign(campaign: Campaign) -> dict:
    return {"id": campaign.pk, "name": campaign.name, "ruleset": campaign.ruleset}


def _phase(phase: Phase | None) -> dict | None:
    if phase is None:
        return None
    return {"turn": phase.turn, "position": phase.position, "key": phase.key}


def _power(power) -> str | None:
    return power.key if power is not None else None


def _viewers(seats: list[Seat]) -> dict[int, frozenset[str] | None]:
    """What each of the user's campaigns lets him read of a log line, at most: all of it
    as its GM (None), else the lines whose audience holds the power he plays (a former
    player or an observer: the lines for everyone only)."""
    viewers: dict[int, frozenset[str] | None] = {}
    for seat in seats:
        if seat.is_gm:
            viewers[seat.campaign_id] = None
        else:
            viewers[seat.campaign_id] = frozenset({seat.power.key} if seat.power_id else ())
    return viewers


def export(user) -> dict[str, Any]:
    """Everything Courier holds about ``user``, as a JSON-ready dict (times as datetimes:
    DjangoJSONEncoder writes them in ISO 8601)."""
    profile = Profile.objects.filter(user=user).first()
    record = Reliability.objects.filter(user=user).first()
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("campaign", "power", "former_power")
        .order_by("campaign_id")
    )
    viewers = _viewers(seats)
    mine = {"user": user}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now(),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "email_waiting_for_confirmation": profile.unconfirmed_email if profile else "",
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        },
        "preferences": _preferences(profile),
        "record": _record(record),
        "seats": [
            {
                "campaign": _campaign(seat.campaign),
                "role": seat.role,
                "power": _power(seat.power),
                "former_power": _power(seat.former_power),
                "taken_at": seat.created_at,
                "left_at": seat.left_at,
                "away_from": seat.away_from,
                "away_until": seat.away_until,
                "away_refused_by_gm": seat.away_refused,
            }
            for seat in seats
        ],
        "powers_played": [
            {
                "campaign": _campaign(t.campaign),
                "power": t.power.key,
                "first_turn": t.first_turn,
                "last_turn": t.last_turn,
                "started_at": t.started_at,
                "ended_at": t.ended_at,
                "ended": t.ended,
            }
            for t in Tenure.objects.filter(**mine).select_related("campaign", "power")
        ],
        "orders": [
            {
                "campaign": _campaign(o.campaign),
                "phase": _phase(o.phase),
                "power": o.power.key,
                "payload": o.payload,
                "ready": o.ready,
                "updated_at": o.updated_at,
            }
            for o in Order.objects.filter(submitted_by=user)
            .select_related("campaign", "phase", "power")
            .order_by("pk")
        ],
        "decisions": [
            {
                "campaign": _campaign(d.campaign),
                "phase": _phase(d.phase),
                "power": d.power,
                "as_gm": d.as_gm,
                "answer": d.answer,
                "at": d.created_at,
            }
            for d in DecisionRecord.objects.filter(actor=user).select_related("campaign", "phase")
        ],
        "inputs": [
            {
                "campaign": _campaign(i.campaign),
                "phase": _phase(i.phase),
                "kind": i.kind,
                "power": i.power,
                "changes": i.changes,
                "at": i.created_at,
            }
            for i in InputRecord.objects.filter(actor=user).select_related("campaign", "phase")
        ],
        "press": [
            {
                "campaign": _campaign(m.campaign),
                "channel": m.channel.key,
                "written_as": _power(m.power) or "gm",
                "turn": m.turn,
                "phase": _phase(m.phase),
                "text": m.text,
                "at": m.created_at,
            }
            for m in Message.objects.filter(author=user)
            .select_related("campaign", "channel", "phase", "power")
            .order_by("pk")
        ],
        "notes": [
            {
                "campaign": _campaign(n.campaign),
                "phase": _phase(n.phase),
                "text": n.text,
                "updated_at": n.updated_at,
            }
            for n in Note.objects.filter(**mine).select_related("campaign", "phase").order_by("pk")
        ],
        "log_lines": _log_lines(user, viewers),
        "extensions": [
            {
                "campaign": _campaign(e.campaign),
                "phase": _phase(e.phase),
                "power": e.power.key,
                "year": e.year,
                "hours": e.hours,
                "at": e.created_at,
            }
            for e in Extension.objects.filter(**mine).select_related("campaign", "phase", "power")
        ],
        "deadlines_counted": [
            {
                "campaign": _campaign(t.phase.campaign),
                "phase": _phase(t.phase),
                "power": t.power.key,
                "missed": t.missed,
            }
            for t in Turnout.objects.filter(**mine)
            .select_related("phase__campaign", "power")
            .order_by("pk")
        ],
        "seat_requests": [
            {
                "campaign": _campaign(r.campaign),
                "power": r.power.key,
                "status": r.status,
                "asked_at": r.created_at,
                "answered_at": r.answered_at,
            }
            for r in SeatRequest.objects.filter(**mine).select_related("campaign", "power")
        ],
        "gm_handovers": [
            {
                "campaign": _campaign(h.campaign),
                "offered": "to you" if h.to_user_id == user.pk else "by you",
                "status": h.status,
                "offered_at": h.created_at,
                "answered_at": h.answered_at,
            }
            for h in Handover.objects.filter(Q(to_user=user) | Q(from_user=user))
            .select_related("campaign")
            .order_by("pk")
        ],
        "new_gm_requests": [
            {"campaign": _campaign(r.campaign), "at": r.created_at}
            for r in NewGmRequest.objects.filter(**mine).select_related("campaign")
        ],
        "mail": _mail(user),
        "devices": [
            {
                "device": d.device,
                "push_service": urlsplit(d.endpoint).hostname,
                "subscribed_at": d.created_at,
                "last_sent_at": d.last_sent_at,
            }
            for d in PushSubscription.objects.filter(**mine).order_by("pk")
        ],
        "calendar_feed": [
            {"secret_address_made_at": feed.rotated_at}
            for feed in CalendarFeed.objects.filter(**mine)
        ],
        "api_tokens": [
            {"name": t.name, "made_at": t.created_at, "last_used_at": t.last_used_at}
            for t in AccessToken.objects.filter(**mine).order_by("pk")
        ],
        "press_read_up_to": [
            {
                "campaign": _campaign(r.channel.campaign),
                "channel": r.channel.key,
                "message": r.last_read,
            }
            for r in ReadMarker.objects.filter(**mine)
            .select_related("channel__campaign")
            .order_by("pk")
        ],
        "campaigns_created": [
            {**_campaign(c), "created_at": c.created_at}
            for c in Campaign.objects.filter(created_by=user).order_by("pk")
        ],
        "phases_resolved": [
            {"campaign": _campaign(p.campaign), "phase": _phase(p), "resolved_at": p.resolved_at}
            for p in Phase.objects.filter(resolved_by=user).select_related("campaign")
        ],
        **_logins(user),
    }


def _preferences(profile: Profile | None) -> dict:
    if profile is None:
        return {}
    return {
        "language": profile.language,
        "time_zone": profile.time_zone,
        "browser_language": profile.browser_language,
        "browser_time_zone": profile.browser_time_zone,
        "reminder_hours": profile.reminder_hours,
        "away_from": profile.away_from,
        "away_until": profile.away_until,
        "press_digest_up_to": profile.press_digest_at,
    }


def _record(record: Reliability | None) -> dict:
    fields = ("owed", "on_time", "missed", "seats_left", "replaced_in", "finished")
    return {name: getattr(record, name) if record else 0 for name in fields}


def _log_lines(user, viewers: dict[int, frozenset[str] | None]) -> list[dict]:
    """The log lines naming ``user`` as their actor, each as he may read it (a line of a
    campaign he no longer sits in: as everyone reads it)."""
    rows = (
        Event.objects.filter(actor=user).select_related("campaign", "phase", "power").order_by("pk")
    )
    found = []
    for event in rows:
        text = visible_text(event, viewers.get(event.campaign_id, frozenset()))
        if text:
            found.append(
                {
                    "campaign": _campaign(event.campaign),
                    "phase": _phase(event.phase),
                    "turn": event.turn,
                    "kind": event.kind,
                    "rule": event.rule,
                    "text": text,
                    "at": event.created_at,
                }
            )
    return found


def _mail(user) -> dict:
    return {
        "by_campaign": [
            {
                "campaign": _campaign(c.campaign),
                "your_turn": c.your_turn,
                "reminders": c.reminders,
                "resolved": c.resolved,
                "press": c.press,
                "lobby": c.lobby,
            }
            for c in MailChoice.objects.filter(user=user).select_related("campaign")
        ],
        "reminders_sent": [
            {
                "campaign": _campaign(r.phase.campaign),
                "phase": _phase(r.phase),
                "hours_before": r.hours,
                "deadline": r.deadline,
            }
            for r in ReminderSent.objects.filter(user=user)
            .select_related("phase__campaign")
            .order_by("pk")
        ],
        "mails_received": [
            {"from": r.sender, "outcome": r.outcome, "at": r.received_at}
            for r in ReceivedMail.objects.filter(user=user).order_by("pk")
        ],
    }


def _logins(user) -> dict:
    """The logins recorded under the user's name (django-axes): his own, when, from where,
    with what browser; the failed ones, whoever tried, when and how many."""
    name = user.get_username()
    return {
        "logins": [
            {
                "at": row.attempt_time,
                "address": row.ip_address,
                "browser": row.user_agent,
                "logged_out_at": row.logout_time,
            }
            for row in AccessLog.objects.filter(username=name).order_by("pk")
        ],
        # tried by anyone: when, and how often, never from where (maybe not his)
        "failed_logins": [
            {"last_at": row.attempt_time, "failures": row.failures_since_start}
            for row in AccessAttempt.objects.filter(username=name).order_by("pk")
        ],
        "failed_logins_logged": [
            {"at": row.attempt_time, "locked_out": row.locked_out}
            for row in AccessFailureLog.objects.filter(username=name).order_by("pk")
        ],
    }


def filename(user) -> str:
    """The download's file name."""
    return f"courier-personal-data-{user.pk}.json"


# -- the deletion ------------------------------------------------------------------------


def account_context(user, form: DeleteAccountForm | None = None) -> dict:
    """What the preferences page shows of the user's data: the deletion's form (the one
    sent, with its errors) and the campaigns he runs, which refuse it until they are
    handed over or ended (one query)."""
    return {
        "delete_form": form or DeleteAccountForm(user=user),
        "campaigns_run": campaigns_run(user),
    }


def campaigns_run(user) -> list[Campaign]:
    """The campaigns not ended where ``user`` holds a GM seat, by name."""
    rows = Campaign.objects.filter(seats__user=user, seats__role=Seat.Role.GM, ended_at=None)
    return list(rows.distinct().order_by("name", "pk"))


def refuse_a_running_gm(user) -> None:
    """A Conflict naming the campaigns ``user`` runs that have not ended, if any."""
    running = campaigns_run(user)
    if running:
        names = ", ".join(f"“{c.name}”" for c in running)
        raise Conflict(
            ngettext(
                "You are a GM of %(campaigns)s, which has not ended: hand it over to another "
                "user, leave its GM team or end it (GM dashboard) before you delete your "
                "account.",
                "You are a GM of %(campaigns)s, which have not ended: hand each over to "
                "another user, leave its GM team or end it (GM dashboard) before you delete "
                "your account.",
                len(running),
            )
            % {"campaigns": names}
        )


def delete_account(*, user, erase_press: bool) -> list[int]:
    """Delete ``user``'s account (see the module docstring), his press erased too when
    ``erase_press``; the ids of the campaigns whose log says so. Refused (a Conflict,
    nothing changed) while he is a GM of a campaign that has not ended."""
    with transaction.atomic():
        seated = Seat.objects.filter(user=user).values_list("campaign_id", flat=True)
        # his campaigns locked first, in id order, as every change locks them; then his
        # row: no seat, token or message of his is added meanwhile (each would wait for
        # the lock, then find no user). A seat taken before the lock joins the list.
        campaigns = {pk: locked_campaign(pk) for pk in sorted(set(seated))}
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        refuse_a_running_gm(user)
        campaign_ids = sorted(set(seated))
        written = Message.objects.filter(author=user).values_list("campaign_id", flat=True)
        for campaign_id in campaign_ids:
            _leave(campaigns.get(campaign_id) or locked_campaign(campaign_id), user)
        Tenure.objects.filter(user=user).update(user_name="")
        if erase_press:
            erased = sorted(set(written) - set(campaign_ids))
            Message.objects.filter(author=user).update(text=ERASED)
            for campaign in Campaign.objects.filter(pk__in=erased):
                campaign.bump_version(state=False)
        Handover.objects.filter(from_user=user, status=Handover.Status.PENDING).update(
            status=Handover.Status.WITHDRAWN, answered_at=timezone.now()
        )
        ReceivedMail.objects.filter(user=user).delete()
        if user.email:
            RefusalAnswered.objects.filter(sender__iexact=user.email).delete()
        name = user.get_username()
        for logins in (AccessLog, AccessAttempt, AccessFailureLog):
            logins.objects.filter(username=name).delete()
        end_sessions(user)
        user.delete()  # his notes, preferences, record, devices, tokens, requests… with it
    return campaign_ids


def _leave(campaign: Campaign, user) -> None:
    """``user`` leaves ``campaign`` (locked): a power's or a GM's seat is emptied, an
    observer's goes; the log says so; a phase that waited for him goes on without him."""
    for seat in (
        Seat.objects.select_for_update(of=("self",))
        .select_related("power")
        .filter(campaign=campaign, user=user)
    ):
        if seat.role == Seat.Role.OBSERVER:
            seat.delete()
            said = Text("An observer has deleted their account.")
        else:
            _empty(campaign, seat)
            if seat.power_id is not None and not seat.is_gm:
                said = Text(
                    "The player of %(power)s has deleted their account: the seat is empty, "
                    "and what they did stays in the history as a former player's.",
                    power=seat.power.display_name,
                )
            else:
                said = Text(
                    "A GM has deleted their account: what they did stays in the history "
                    "as a former GM's."
                )
        log(campaign, Event.Kind.SEAT, said, power=seat.power)
    campaign.bump_version()
    lifecycle.settle(campaign)


def _empty(campaign: Campaign, seat: Seat) -> None:
    """The seat keeps its role and power, without a player: as the GM's "seat nobody"
    leaves it (services.assign_seat), with a new invitation link."""
    seat.user, seat.user_placeholder = None, ""
    seat.clear_away()
    seat.former_power, seat.left_at = None, None
    seat.invite_token = Seat._meta.get_field("invite_token").get_default()
    fields = ["user", "user_placeholder", "former_power", "left_at", "invite_token"]
    seat.save(update_fields=[*fields, *Seat.AWAY_FIELDS])
    if seat.power_id is not None:
        if seat.power.in_disorder:
            disorder.restore(seat.power)
        tenures.end(campaign, seat.power, Tenure.Ended.LEFT)


def end_sessions(user) -> int:
    """End every session of ``user`` kept in the database (the site's sessions are:
    django.contrib.sessions' db or cached_db engine); how many. Elsewhere (a cache or a
    signed cookie) a session of a deleted account finds no user and is anonymous."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return 0
    ended = 0
    rows = store.get_model_class().objects.filter(expire_date__gt=timezone.now())
    for key, data in rows.values_list("session_key", "session_data").iterator():
        if store().decode(data).get(SESSION_KEY) == str(user.pk):
            store(key).delete()
            ended += 1
    return ended
