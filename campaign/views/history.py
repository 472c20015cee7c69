"""History pages (any seated user) and the GM's rollback.

A history page shows the map, the ruleset's state panels and the log as they were once a
past phase had resolved, within the seat's own hidden-information limits. The World is
built by the ruleset's own loader from the snapshot the next phase opened with (read as
rows in memory: campaign/state/snapshots.py SnapshotRows), never from, or into, the live rows;
the viewer (Ruleset.viewer) and the presenters are the campaign page's, fed that World.
The log holds the lines of the phases up to that one, written up to that moment. A phase
still open has no history yet (409); a phase without a snapshot (resolved before they
were kept) shows its log only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaign import presenters
from campaign.core import watching
from campaign.maps.drawn import campaign_map
from campaign.models import Campaign, Phase, Seat
from campaign.play import gm_orders, tenures
from campaign.play.services import seat_for
from campaign.press import press
from campaign.records.rollback import roll_back
from campaign.records.state_rows import SnapshotRows
from campaign.selectors.history import campaign_phases, past_lines
from campaign.selectors.pages import orders_by_power
from campaign.state import history
from campaign.views.access import gm_seat
from campaign.views.context import LOG_LIMIT, load_state
from campaign.views.gm import perform
from rules.gm_orders import KEY as GM_ORDERS_KEY
from rules.translation import localized


@dataclass(frozen=True)
class PhaseEntry:
    """A phase in the history's list of phases."""

    pk: int
    name: str
    turn: str
    status: str  # "resolved", "open" or "waiting"
    current: bool  # the phase this page shows

    @property
    def browsable(self) -> bool:
        return self.status == Phase.Status.RESOLVED


@dataclass(frozen=True)
class PastView:
    """The map and state panels after a past phase, as a seat saw them (no map for a
    phase without a snapshot), and whose hidden state that seat sees."""

    map: presenters.MapView | None
    panels: dict
    viewer: frozenset[str] | None


def past_view(seat: Seat, then: Campaign, phase: Phase, past: history.PastState) -> PastView:
    """The map after ``phase`` (``past``: its state, ``then``: the campaign as of it),
    with the orders it resolved drawn on it, as ``seat`` may see them."""
    rules = then.rules
    if past.state is None:
        world = rules.load_world(then) if rules.has_secrets else None
        return PastView(None, {}, watching.seat_viewer(seat, rules, world) if world else None)
    rows = SnapshotRows(then, past.state)
    world = rules.load_world(then, rows)
    viewer = watching.seat_viewer(seat, rules, world, at=phase.resolved_at)
    presenter = rules.hooks.presenter
    powers = rows.powers()
    orders = resolved_orders(seat, then, phase, {power.pk: power.key for power in powers})
    areas = [
        {"key": a.key, "name": a.name, "kind": a.kind, "controller_id": a.controller_id}
        | {"x": a.x, "y": a.y}
        for a in rows.areas()
    ]
    shapes = campaign_map(then)
    drawn = presenters.map_view(
        areas,
        powers,
        world,
        presenter,
        viewer,
        shapes=shapes,
        own_power_id=seat.power_id,
        orders=orders,
    )
    return PastView(drawn, presenter.panels(world, viewer) if presenter else {}, viewer)


def resolved_orders(seat: Seat, campaign: Campaign, phase: Phase, keys: dict) -> dict:
    """The orders ``phase`` resolved, by power key, as the seat may read them once it is
    over: every power's, their lines for the GM only where the campaign reveals them
    (campaign/play/gm_orders.py) or for the seat's own power. What stays hidden in them (the
    other side's blocks) the presenter leaves out."""
    shown = {}
    for order in orders_by_power(phase).values():
        payload = order.payload
        if not (gm_orders.reveals(campaign) or order.power_id == seat.power_id):
            payload = {k: v for k, v in payload.items() if k != GM_ORDERS_KEY}
        if order.power_id in keys:
            shown[keys[order.power_id]] = payload
    return shown


@login_required
def phase_history(request, campaign_id: int, phase_id: int):
    seat = seat_for(request.user, campaign_id)
    campaign = seat.campaign
    rules = campaign.rules
    phases = campaign_phases(campaign)
    index = next((i for i, p in enumerate(phases) if p.pk == phase_id), None)
    if index is None:
        raise Http404("No such phase in this campaign.")
    phase = phases[index]
    phase.campaign = campaign
    entries = [
        PhaseEntry(
            p.pk,
            rules.phase(p.key).name,
            localized(rules.turn_label(p.turn, campaign.setup)),
            p.status,
            p.pk == phase.pk,
        )
        for p in phases
    ]
    browsable = [e for e in entries if e.browsable]
    at = next((i for i, e in enumerate(browsable) if e.current), None)
    context = {
        "seat": seat,
        "campaign": campaign,
        "ruleset": rules,
        "shown": entries[index],
        "entries": entries,
        "previous": browsable[at - 1] if at else None,
        "next": browsable[at + 1] if at is not None and at + 1 < len(browsable) else None,
        "ruleset_templates": presenters.templates_of(campaign.rules),
        "ruleset_styles": presenters.styles_of(campaign.rules),
        "history": True,
        "played_by": tenures.played_by(campaign),
    }
    if phase.is_open:
        if browsable:
            context["previous"] = browsable[-1]
        return render(request, "campaign/history.html", {**context, "still_open": True}, status=409)

    following = phases[index + 1] if index + 1 < len(phases) else None
    past = history.past_state(phase, following)
    then = history.at_turn(campaign, past.turn)
    shown = past_view(seat, then, phase, past)
    context |= {"map": shown.map, "ruleset_panels": shown.panels}
    viewer = shown.viewer
    shown_phases = [p.pk for p in phases[: index + 1]]
    seeded = campaign.dice_mode == Campaign.DiceMode.SEEDED
    context["log"] = presenters.log_groups(
        past_lines(campaign, shown_phases, past.event_id, LOG_LIMIT),
        rules,
        campaign.setup,
        seeded,
        viewer,
    )
    lines, more = press.of_phase(seat, phase.pk, press.campaign_powers(campaign))
    context |= {"press_lines": lines, "press_more": more}
    return render(request, "campaign/history.html", {**context, "campaign": then, "past": past})


class RollbackForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, undo the last resolved phase"),
        error_messages={"required": gettext_lazy("Tick the box to confirm the rollback.")},
    )


@login_required
@require_POST
def rollback(request, campaign_id: int):
    """The GM undoes the last resolved phase (campaign/records/rollback.py)."""
    state = load_state(gm_seat(request.user, campaign_id))

    def undo(_: dict) -> str:
        reopened = roll_back(campaign_id=campaign_id, actor=request.user)
        name = state.rules.phase(reopened.key).name
        return gettext("%(phase)s is rolled back: it is open again, with a fresh dice seed.") % {
            "phase": name
        }

    return perform(request, state, RollbackForm(request.POST), undo, anchor="#phase")
