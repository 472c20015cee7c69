"""Deadlines and who still owes orders: when a phase may resolve on its own.

A phase resolves automatically (campaign.auto_resolve, seeded dice only) as soon as
every power that owes orders has marked them ready, or when its deadline passes. A
power owes orders in a phase that takes them from it when its seat has a player and it
is not marked absent; a phase no power owes orders in (a GM-run step, or everyone
absent) waits for its deadline or the GM. The GM sets, extends, pauses and resumes a
deadline; a phase's default deadline comes from the campaign's hours per phase kind.
"""

from __future__ import annotations

import ipaddress
import socket
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.models import Campaign, Event, Order, Phase, Power, Seat
from campaign.services import (
    Conflict,
    ServiceError,
    locked_campaign,
    log,
    resolve_when_everyone_is_ready,
)
from rules.text import Join, Text
from rules.translation import Term

EXTEND_RANGE = (1, 24 * 14)  # hours


def owing_powers(campaign: Campaign, phase: Phase) -> list[Power]:
    """The powers whose orders the phase waits for, each with ``ready`` (one query)."""
    spec = campaign.rules.phase(phase.key)
    if not spec.takes_orders:
        return []
    seated = Seat.objects.filter(user__isnull=False, power__isnull=False).values("power_id")
    ready = Order.objects.filter(phase=phase, power=OuterRef("pk"), ready=True)
    powers = campaign.powers.filter(absent=False, pk__in=seated).annotate(ready=Exists(ready))
    return [power for power in powers if spec.takes_orders_from(power.key)]


def everyone_ready(campaign: Campaign, phase: Phase) -> bool:
    """Every power that owes orders has marked them ready (and at least one owes them)."""
    owing = owing_powers(campaign, phase)
    return bool(owing) and all(power.ready for power in owing)


def resolves_itself(campaign: Campaign) -> bool:
    """Automatic resolution is on and the dice need no GM."""
    return campaign.auto_resolve and campaign.dice_mode == Campaign.DiceMode.SEEDED


def default_deadline(campaign: Campaign, key: str, opened: datetime) -> datetime | None:
    """The deadline of a phase of kind ``key`` opened at ``opened``, if the campaign has one."""
    hours = campaign.deadline_hours.get(key)
    return opened + timedelta(hours=hours) if hours else None


def due_phases(now: datetime):
    """Open phases past their deadline, in campaigns that resolve themselves."""
    return Phase.objects.filter(
        status=Phase.Status.OPEN,
        deadline__lte=now,
        campaign__auto_resolve=True,
        campaign__dice_mode=Campaign.DiceMode.SEEDED,
        campaign__phase=F("pk"),
    ).select_related("campaign")


# -- the GM's deadline controls ------------------------------------------------------


def _open_phase_for_change(campaign_id: int, phase_id: int) -> tuple[Campaign, Phase]:
    campaign = locked_campaign(campaign_id)
    phase = campaign.phase
    if phase is None or phase.pk != phase_id:
        raise Conflict(_("That phase is no longer open: nothing was changed."))
    if phase.status == Phase.Status.WAITING:
        raise Conflict(
            _(
                "The phase is being resolved (it waits for a decision): its deadline no longer "
                "applies."
            )
        )
    return campaign, phase


def extend_deadline(*, campaign_id: int, phase_id: int, hours: int, actor) -> Phase:
    """Push the deadline back by ``hours`` (from now when the phase has none)."""
    if not EXTEND_RANGE[0] <= hours <= EXTEND_RANGE[1]:
        raise ServiceError(
            _("Extend by %(low)s to %(high)s hours.")
            % {"low": EXTEND_RANGE[0], "high": EXTEND_RANGE[1]}
        )
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.paused_remaining is not None:
            raise ServiceError(_("The deadline is paused: resume it first."))
        start = phase.deadline or timezone.now()
        phase.deadline = start + timedelta(hours=hours)
        phase.reminders_sent = []
        phase.save(update_fields=["deadline", "reminders_sent"])
        log(
            campaign,
            Event.Kind.GM,
            Text(
                "Deadline extended by %(hours)s h, to %(when)s.",
                hours=hours,
                when=_when(phase.deadline),
            ),
            actor=actor,
        )
        campaign.bump_version()
        return phase


def pause_deadline(*, campaign_id: int, phase_id: int, actor) -> Phase:
    """Stop the clock: the time left is kept until the GM resumes."""
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.deadline is None:
            raise ServiceError(_("The phase has no deadline to pause."))
        left = max(phase.deadline - timezone.now(), timedelta(0))
        phase.paused_remaining, phase.deadline = left, None
        phase.save(update_fields=["paused_remaining", "deadline"])
        said = Text("Deadline paused with %(left)s left.", left=_duration(left))
        log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
        return phase


def resume_deadline(*, campaign_id: int, phase_id: int, actor) -> Phase:
    """Start the clock again with the time that was left."""
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.paused_remaining is None:
            raise ServiceError(_("The deadline is not paused."))
        phase.deadline = timezone.now() + phase.paused_remaining
        phase.paused_remaining = None
        phase.save(update_fields=["paused_remaining", "deadline"])
        said = Text("Deadline resumed: %(when)s.", when=_when(phase.deadline))
        log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
        return phase


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%d %b %Y %H:%M UTC")


def _duration(left: timedelta) -> Text:
    hours, rest = divmod(int(left.total_seconds()), 3600)
    return Text("%(hours)s h %(minutes)s min", hours=hours, minutes=f"{rest // 60:02d}")


def set_schedule(
    *, campaign_id: int, auto_resolve: bool, deadline_hours: dict, webhook_url: str, actor
) -> None:
    """Automatic resolution, default deadlines per phase kind, and the webhook."""
    refusal = webhook_refusal(webhook_url)
    if refusal:
        raise ServiceError(refusal)
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        campaign.auto_resolve, campaign.deadline_hours = auto_resolve, deadline_hours
        campaign.webhook_url = webhook_url
        campaign.save(update_fields=["auto_resolve", "deadline_hours", "webhook_url"])
        log(campaign, Event.Kind.GM, _schedule_line(campaign, webhook_url), actor=actor)
        campaign.bump_version()
        if campaign.phase_id:
            resolve_when_everyone_is_ready(campaign, campaign.phase)


NOT_ANOTHER_SERVER = gettext_lazy(
    "A webhook URL must point at another server, not at this one or a private address."
)


class WebhookRefused(Exception):
    """A webhook URL that may not be used; the message says why."""


def webhook_refusal(url: str) -> str:
    """Why the GM may not save this webhook URL ("" when it is fine). Its host name is
    looked up only when sending (webhook_address), for what it resolves to may change."""
    try:
        if url:
            _checked_host(url)
    except WebhookRefused as refusal:
        return str(refusal)
    return ""


def webhook_address(url: str) -> str:
    """The one address a webhook is sent to: its host looked up once and every address it
    has checked, the first returned. The sender connects to it instead of looking the name
    up again, which could then answer a private address (DNS rebinding).
    Raises WebhookRefused."""
    host = _checked_host(url)
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        addresses = [ipaddress.ip_address(info[4][0]) for info in found]
    except (OSError, ValueError):
        message = _("The webhook's host %(host)s cannot be found.") % {"host": host}
        raise WebhookRefused(message) from None
    if not settings.WEBHOOK_ALLOW_PRIVATE and not all(a.is_global for a in addresses):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    return str(addresses[0])


def _checked_host(url: str) -> str:
    """The URL's host. WebhookRefused unless it is http(s) and never this server itself:
    its own host names, a .localhost name, or a loopback, private, link-local or
    unspecified address however it is spelt (127.1, 2130706433, 0x7f000001);
    settings.WEBHOOK_ALLOW_PRIVATE lifts all but the first of these for a private network."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookRefused(_("A webhook URL must be an http:// or https:// address."))
    host = parts.hostname.lower().rstrip(".")
    site = urlsplit(settings.SITE_URL)
    if (host, parts.port) == (site.hostname, site.port):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return host
    own = {h.lstrip(".").lower() for h in settings.ALLOWED_HOSTS if h != "*"}
    if host in own or host == "localhost" or host.endswith(".localhost"):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    literal = _literal_address(host)
    if literal is not None and not literal.is_global:
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    return host


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as a number stands for (any spelling inet_aton takes)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _schedule_line(campaign: Campaign, webhook_url: str) -> Text:
    """The log line of a schedule change."""
    hours = [
        Text("%(phase)s %(hours)s h", phase=Term(campaign.rules.phase(key).name), hours=h)
        for key, h in campaign.deadline_hours.items()
    ]
    return Text(
        "Schedule: automatic resolution %(auto)s; default deadlines: %(deadlines)s; "
        "webhook %(webhook)s.",
        auto=Text("on") if campaign.auto_resolve else Text("off"),
        deadlines=Join(*hours, sep=", ") if hours else Text("none"),
        webhook=Text("set") if webhook_url else Text("none"),
    )


def set_absent(*, campaign_id: int, power_id: int, absent: bool, actor) -> None:
    """Mark a power absent (it owes no orders; its default orders apply) or back."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        power = campaign.powers.filter(pk=power_id).first()
        if power is None:
            raise ServiceError(_("There is no such power in this campaign."))
        power.absent = absent
        power.save(update_fields=["absent"])
        if absent:
            said = Text(
                "%(power)s is absent: it owes no orders and its default orders apply.",
                power=power.name,
            )
        else:
            said = Text("%(power)s is back.", power=power.name)
        log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
        campaign.bump_version()
        if campaign.phase_id:
            resolve_when_everyone_is_ready(campaign, campaign.phase)
