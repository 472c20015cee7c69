"""Orders for the GM in a campaign (rules/gm_orders.py): the lines each reader may read
(the GM and the power itself until the phase is over: campaign/core/sealing.py), the GM
carrying one out in one step (the edit it names, made as the order says) or through a
prefilled edit he may change first (either way logged against it, and marked done), and
their reveal in the log once the phase is resolved (a campaign setting, on by default)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from campaign.core import sealing
from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict, ServiceError
from campaign.models import Campaign, Event, Order, Phase
from campaign.play import gm_edits
from campaign.play.gm_order_forms import CarryOutForm, declared_module
from rules import gm_orders as gmo
from rules.forms import row_item
from rules.text import Text, message_of
from rules.translation import localized


@dataclass(frozen=True)
class GmLine:
    """One line as the dashboard and the player's page list it."""

    power: str
    order_id: int
    number: int
    text: str  # in the reader's language
    done: bool
    digest: str
    edit: str  # the GM edit that carries it out; "": none (the GM marks it done)


@dataclass(frozen=True)
class PowerOrders:
    power: str
    power_id: int
    ready: bool
    lines: tuple[GmLine, ...]
    note: str


class NeedsEditing(Exception):
    """The edit an order names is not complete as the order says: the GM completes it in
    the prefilled form (not a refusal: nothing is wrong, one step is missing)."""


@dataclass(frozen=True)
class Task:
    """A line the GM is about to carry out."""

    order: Order
    number: int
    line: dict

    @property
    def carrying_out(self) -> Text:
        return gmo.carrying_out(self.order.power.display_name, self.number)


def reveals(campaign: Campaign) -> bool:
    """Whether the log shows the orders for the GM once each phase is over."""
    return campaign.reveal_gm_orders


# -- reading ------------------------------------------------------------------------


def readable(state) -> list[PowerOrders]:
    """The open phase's orders for the GM that the seat may read, power by power."""
    orders = sealing.readable_orders(state.seat, state.orders)
    module = declared_module(state.rules)
    places = module.places(state.world) if module else {}
    found = []
    for power in state.powers:
        order = orders.get(power.pk)
        lines, note = gmo.lines_of(order and order.payload), gmo.note_of(order and order.payload)
        if not (lines or note):
            continue
        pieces = {p.id: p for p in module.pieces(state.world, power.key)} if module else {}
        described = tuple(
            _line(state.world, module, (power.display_name, order.pk), number, line, pieces, places)
            for number, line in enumerate(lines, start=1)
        )
        found.append(PowerOrders(power.display_name, power.pk, order.ready, described, note))
    return found


def _line(world, module, order, number: int, line: dict, pieces, places) -> GmLine:
    """``order``: (its power's name, its id)."""
    prefill = module.carry_out(world, line) if module else None
    return GmLine(
        power=order[0],
        order_id=order[1],
        number=number,
        text=localized(gmo.describe(line, pieces, places)),
        done=bool(line.get("done")),
        digest=gmo.digest(line),
        edit=prefill.edit if prefill else "",
    )


def own(state) -> PowerOrders | None:
    """The seat's own power's orders for the GM, as saved."""
    return next((p for p in readable(state) if p.power_id == state.seat.power_id), None)


def by_edit(found: list[PowerOrders]) -> dict[str, list[GmLine]]:
    """The lines an edit carries out, by edit key: each edit panel lists its own."""
    grouped: dict[str, list[GmLine]] = {}
    for power in found:
        for line in power.lines:
            if line.edit:
                grouped.setdefault(line.edit, []).append(line)
    return grouped


def line_texts(state) -> Callable[[Any], tuple[str, ...]]:
    """For an order the seat may read: its lines for the GM, one text each."""
    found: dict[int, list[str]] = {}
    for power in readable(state):
        for line in power.lines:
            text = _("for the GM: %(number)s. %(line)s") % {
                "number": line.number,
                "line": line.text,
            }
            found.setdefault(line.order_id, []).append(text)
    return lambda order: tuple(found.get(order.pk, ()))


# -- carrying out -------------------------------------------------------------------


def find(seat, order_id: int, number: int, digest: str) -> Task:
    """The line ``number`` of an order of the open phase that the GM's seat may read,
    as it was when the page was loaded (``digest``). 404: no such order or line for this
    reader; Conflict: the phase has moved on, the line changed, or it is done."""
    order = (
        Order.objects.select_related("power", "phase", "campaign")
        .filter(pk=order_id, campaign_id=seat.campaign_id)
        .first()
    )
    if order is None:
        raise Http404("No such order.")
    campaign = order.campaign
    if order.phase_id != campaign.phase_id or order.phase.status != Phase.Status.OPEN:
        raise Conflict(
            _("That order was given for a phase that is no longer open: nothing was done.")
        )
    orders = {o.power_id: o for o in Order.objects.filter(phase_id=order.phase_id)}
    lines = gmo.lines_of(order.payload)
    if order.power_id not in sealing.readable_orders(seat, orders) or not 0 < number <= len(lines):
        raise Http404("No such order.")
    line = lines[number - 1]
    if gmo.digest(line) != digest:
        raise Conflict(
            _("%(power)s has changed its orders since this page was loaded: reload it.")
            % {"power": order.power.display_name}
        )
    if line.get("done"):
        raise Conflict(_("That order has already been carried out."))
    return Task(order, number, line)


def apply_edit(form, data, *, seat, actor) -> Text:
    """Make a GM edit (call after form.is_valid()); when the post names the order for the
    GM it carries out (CarryOutForm), the log line says so and the line is marked done."""
    carry = CarryOutForm.posted(data)
    if carry is None:
        return gm_edits.apply(form, campaign=seat.campaign, actor=actor)
    if not carry.is_valid():
        raise ServiceError(
            _("The order this edit carries out is not named right: reload the page.")
        )
    return _carried(form, find(seat, *_named(carry)), campaign=seat.campaign, actor=actor)


def carry_out(state, *, order_id: int, number: int, digest: str, edit_forms: dict, actor) -> str:
    """Carry out a line in one step: the edit prefilled from it, made as it is, logged
    against the order (as an edit the GM saves from the prefilled form) and the line
    marked done; the message that says so. Call within the GM's change (campaign.core.changes
    .expecting_state). NeedsEditing: the order does not say all the edit needs."""
    task = find(state.seat, order_id, number, digest)
    shown = prefilled(state, task, edit_forms)
    form = type(shown)(
        _as_posted(shown), world=state.world, caption=shown.caption, auto_id=shown.auto_id
    )
    if not form.is_valid():
        raise NeedsEditing(
            _("%(power)s's order %(number)s does not say all the edit needs: complete it.")
            % {"power": task.order.power.display_name, "number": number}
        )
    text = _carried(form, task, campaign=state.campaign, actor=actor)
    return _("Carried out %(power)s's order %(number)s: %(edit)s.") % {
        "power": task.order.power.display_name,
        "number": number,
        "edit": localized(text),
    }


def _carried(form, task: Task, *, campaign, actor) -> Text:
    """Make the edit that carries out the task's line (logged against the order) and
    mark the line done."""
    text = gm_edits.apply(form, campaign=campaign, actor=actor, carrying_out=task.carrying_out)
    _mark_done(task)
    return text


def _as_posted(form) -> dict:
    """An unbound form's values as its page would post them (a field with no value: not
    posted, as a browser sends no empty checkbox; a 0 is a value)."""
    values = {name: form[name].value() for name in form.fields}
    return {
        name: value for name, value in values.items() if value is not None and value is not False
    }


def mark_done(*, seat, order_id: int, number: int, digest: str, actor) -> str:
    """The GM carried out a line by hand (a card, a word): it is marked done, and the log
    says which order (not what it said: that waits for the phase to be over)."""
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        task = find(seat, order_id, number, digest)
        _mark_done(task)
        text = Text(
            "GM %(user)s has carried out %(power)s's order %(number)s for the GM.",
            user=actor.get_username(),
            power=task.order.power.display_name,
            number=number,
        )
        log(campaign, Event.Kind.GM, text, actor=actor, power=task.order.power)
        campaign.bump_version()
        return localized(text)


def _named(carry: CarryOutForm) -> tuple[int, int, str]:
    data = carry.cleaned_data
    return data["carry_order"], data["carry_line"], data["carry_digest"]


def _mark_done(task: Task) -> None:
    payload = task.order.payload
    lines = gmo.lines_of(payload)
    lines[task.number - 1] = {**task.line, "done": True}
    done = {**payload, gmo.KEY: {**payload[gmo.KEY], "lines": lines}}
    Order.objects.filter(pk=task.order.pk).update(payload=done)  # updated_at: the player's


def prefilled(state, task: Task, edit_forms: dict):
    """The edit form that carries the line out, prefilled from it and naming it."""
    module = declared_module(state.rules)
    prefill = module.carry_out(state.world, task.line) if module else None
    form_class = edit_forms.get(prefill.edit) if prefill else None
    if form_class is None:
        raise Http404("No edit carries this order out: mark it done once done.")
    rows = form_class.instances(state.world)
    row = next((f for f in rows if row_item(f) == prefill.item), None)
    if row is None:
        raise Conflict(_("What that order names is no longer on the map: nothing to prefill."))
    form = form_class(
        world=state.world,
        caption=row.caption,
        initial={**row.initial, **prefill.values},
        auto_id=row.auto_id,
    )
    form.carry_out = CarryOutForm(
        initial={
            "carry_order": task.order.pk,
            "carry_line": task.number,
            "carry_digest": gmo.digest(task.line),
        },
        auto_id=False,
    )
    form.carrying = _("Carrying out %(power)s's order %(number)s.") % {
        "power": task.order.power.display_name,
        "number": task.number,
    }
    return form


# -- the reveal ---------------------------------------------------------------------


def reveal(campaign: Campaign, phase: Phase, orders: list[Order]) -> None:
    """As the phase resolves, the log shows each power's orders for the GM (unless the
    campaign keeps them between the GM and each power); in a game with hidden
    information, in full only to those who see that power's pieces."""
    given = [o for o in orders if gmo.lines_of(o.payload) or gmo.note_of(o.payload)]
    if not (given and reveals(campaign)):
        return
    rules = campaign.rules
    world = rules.load_world(campaign)
    module = declared_module(rules)
    places = module.places(world) if module else {}
    powers = list(campaign.powers.all()) if rules.has_secrets else []
    events = []
    for order in given:
        key = order.power.key
        pieces = {p.id: p for p in module.pieces(world, key)} if module else {}
        lines = [
            gmo.numbered(n, gmo.describe(line, pieces, places), bool(line.get("done")))
            for n, line in enumerate(gmo.lines_of(order.payload), start=1)
        ]
        text = gmo.revealed(order.power.display_name, lines, gmo.note_of(order.payload))
        audience = [p.key for p in powers if key in rules.viewer(world, p.key)]
        redacted = (
            Text("%(power)s gave orders for the GM.", power=order.power.display_name)
            if audience
            else ""
        )
        events.append(
            Event(
                campaign=campaign,
                phase=phase,
                turn=campaign.turn,
                kind=Event.Kind.ORDER,
                rule=rules.gm_orders.rules[0] if rules.gm_orders.rules else "",
                power=order.power,
                text=text,
                message=message_of(text),
                audience=audience,
                redacted=redacted,
                redacted_message=message_of(redacted),
            )
        )
    Event.objects.bulk_create(events)


def set_reveal(*, campaign_id: int, reveal: bool, actor) -> str:
    """Whether the log shows the orders for the GM once each phase is over; logged."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if campaign.reveal_gm_orders != reveal:
            campaign.reveal_gm_orders = reveal
            campaign.save(update_fields=["reveal_gm_orders"])
            gm = actor.get_username()
            said = (
                Text(
                    "GM %(gm)s: the log shows the orders for the GM once each phase is over.", gm=gm
                )
                if reveal
                else Text(
                    "GM %(gm)s: the orders for the GM stay between the GM and each power.", gm=gm
                )
            )
            log(campaign, Event.Kind.GM, said, actor=actor)
            campaign.bump_version()
    return _("Setting saved.")
