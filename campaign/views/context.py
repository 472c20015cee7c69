"""What the campaign page and the GM dashboard show, loaded in a fixed number of queries."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode
from django.utils.translation import get_language

from campaign import presenters
from campaign.core import sealing, standing, watching
from campaign.jobs import progress
from campaign.maps.drawn import campaign_map
from campaign.maps.stored import built_map
from campaign.models import Campaign, Event, Order, Phase, Power, Seat
from campaign.people.gm_team import quiet_for
from campaign.play import gm_orders
from campaign.play.extensions import offer as extension_offer
from campaign.play.forms import AwayForm
from campaign.play.gm_order_forms import GmOrdersForm
from campaign.play.scenarios import scenario_name
from campaign.records import summary
from campaign.selectors import log, pages
from campaign.selectors.pages import MAP_AREA_FIELDS, PageRows
from campaign.state.world_cache import page_world
from rules.engine import PhaseSpec, Presenter, Ruleset
from rules.translation import localized

LOG_LIMIT = 200


@dataclass
class CampaignState:
    """One request's view of a campaign: the seat, the open phase, the World, the orders."""

    seat: Seat
    campaign: Campaign
    rules: Ruleset
    phase: Phase | None
    spec: PhaseSpec | None
    world: Any
    powers: list[Power]
    rows: PageRows
    orders: dict[int, Order]

    @cached_property
    def areas(self) -> list[Any]:
        """The areas as the map draws them (key, name, kind, controller_id, x, y): the
        rows the World's loader read, or, when the World came from the cache, just those
        columns read now."""
        if self.rows.area_rows is not None:
            return self.rows.area_rows
        return pages.map_areas(self.campaign)

    @property
    def takes_orders(self) -> bool:
        """The open phase takes orders from this seat's power, and is not under way."""
        if self.spec is None or self.phase.status == Phase.Status.WAITING:
            return False
        return self.spec.takes_orders_from(self.seat.power.key if self.seat.power_id else None)

    @property
    def presenter(self) -> Presenter[object] | None:
        """The ruleset's presenter, if it has one."""
        return self.rules.hooks.presenter

    @property
    def viewer(self) -> frozenset[str] | None:
        """Whose hidden state this seat sees (None: all of it; campaign/core/watching.py)."""
        return watching.seat_viewer(self.seat, self.rules, self.world)

    @property
    def my_order(self) -> Order | None:
        return self.orders.get(self.seat.power_id) if self.seat.power_id else None

    @cached_property
    def standing_order(self) -> Order | None:
        """The seat's power's standing orders of an earlier phase, while it has saved
        none in this one (campaign/core/standing.py): its form is filled in with them."""
        if not (self.takes_orders and self.seat.power_id) or self.my_order is not None:
            return None
        earlier = standing.last_orders(self.campaign, self.phase, [self.seat.power_id])
        return earlier.get(self.seat.power_id)

    def order_form(self, data=None):
        """The seat's order form for the open phase, prefilled from its saved draft, else
        from its standing orders."""
        if not (self.takes_orders and self.seat.power_id):
            return None
        saved = self.my_order or self.standing_order
        form = self.rules.hooks.phase(self.spec.key).order_form
        shared = {"saved_orders": self.others_orders()} if form.reads_saved_orders else {}
        return form(
            data,
            world=self.world,
            power_key=self.seat.power.key,
            initial_payload=saved.payload if saved else None,
            **shared,
        )

    def others_orders(self) -> dict[str, dict]:
        """The other powers' saved orders of the open phase (drafts and ready), by power
        key: for a form whose budget they share (BaseOrderForm.reads_saved_orders)."""
        keys = {power.pk: power.key for power in self.powers}
        return {
            keys[pk]: order.payload
            for pk, order in self.orders.items()
            if pk != self.seat.power_id and pk in keys
        }

    def gm_form(self, data=None):
        """The order form's part for the GM (campaign/play/gm_order_forms.py), beside
        ``order_form``: prefilled from the saved orders."""
        if not (self.takes_orders and self.seat.power_id):
            return None
        saved = self.my_order
        return GmOrdersForm(
            data,
            ruleset=self.rules,
            world=self.world,
            power_key=self.seat.power.key,
            saved=saved.payload if saved else None,
        )

    def decision_form(self, data=None):
        """The decision a procedure of the open phase waits for (None when it waits for
        none); it says whom it waits for, and whether this seat may answer."""
        decisions = self.rules.hooks.decisions
        if not (decisions and self.phase and self.phase.status == Phase.Status.WAITING):
            return None
        return decisions.form(
            data,
            world=self.world,
            power_key=self.seat.power.key if self.seat.power_id else None,
            as_gm=self.seat.is_gm,
        )

    def standing_form(self, data=None):
        form = self.rules.hooks.standing_form
        if not (form and self.seat.power_id):
            return None
        return form(data, world=self.world, power_key=self.seat.power.key)


def load_state(seat: Seat) -> CampaignState:
    campaign = seat.campaign
    rules = campaign.rules
    phase = campaign.phase
    rows = PageRows(campaign)
    world = page_world(campaign, rows)
    orders = pages.orders_by_power(phase) if phase else {}
    return CampaignState(
        seat=seat,
        campaign=campaign,
        rules=rules,
        phase=phase,
        spec=rules.phase(phase.key) if phase else None,
        world=world,
        powers=rows.power_rows if rows.power_rows is not None else rows.powers(),
        rows=rows,
        orders=orders,
    )


def panels_key(state: CampaignState) -> str:
    """The ruleset's state panels' cache key: the state as this reader sees it, and the
    seat they read it from (a player's own power shows more of itself; the GM's, all)."""
    seat = state.seat
    return ":".join(map(str, [*state_view(state), seat.power_id or "", seat.is_gm]))


def gm_part_key(state: CampaignState) -> str | None:
    """The cache key of a power's part of its orders for the GM, drawn from its saved
    orders (which change the campaign's version): None for a seat that gives none."""
    if not (state.takes_orders and state.seat.power_id):
        return None
    seat, reveal = state.seat, state.campaign.reveal_gm_orders
    return ":".join(map(str, [*state_view(state), seat.power_id, reveal]))


def with_saved_orders(state: CampaignState) -> CampaignState:
    """The same state with the open phase's orders read again: under the campaign's lock,
    by a submission whose budget they share (campaign/views/orders.py)."""
    return replace(state, orders=pages.orders_by_power(state.phase))


def with_order(state: CampaignState, order: Order) -> CampaignState:
    """The same state with the seat's power's orders as just saved (``order``)."""
    return replace(state, orders={**state.orders, order.power_id: order})


def panels(state: CampaignState) -> dict:
    """Sequence, readiness, dice, the ruleset's state panels and the style sheets of its
    pieces on the map, the rules links and the scenario's name every page with a phase
    shows."""
    presenter = state.presenter
    seeded = state.campaign.dice_mode == Campaign.DiceMode.SEEDED
    return {
        "seat": state.seat,
        "campaign": state.campaign,
        "ruleset": state.rules,
        "phase": state.phase,
        "spec": state.spec,
        "steps": presenters.sequence(state.rules, state.campaign, state.phase),
        "readiness": presenters.readiness(state.powers, state.orders, state.spec, state.phase),
        "dice": presenters.dice_note(seeded, state.phase),
        # drawn only if the cache has not got them (templates/campaign/detail.html)
        "ruleset_panels": SimpleLazyObject(lambda: presenter.panels(state.world, state.viewer))
        if presenter
        else {},
        "panels_cache_key": panels_key(state) if presenter else None,
        "ruleset_templates": presenters.templates_of(state.rules),
        "ruleset_styles": presenters.styles_of(state.rules),
        "scenario_name": scenario_name(state.campaign.scenario),
    }


def orders_context(
    state: CampaignState, *, order_form=None, gm_form=None, standing_form=None, decision_form=None
) -> dict:
    """The orders panel (with its part for the GM and the lines saved for the GM), the
    decision awaited, the standing order and the submissions."""
    return {
        **panels(state),
        "order_form": order_form or state.order_form(),
        # a form not given is one to draw from the saved orders: drawn only if the cache
        # has not got it (templates/campaign/detail.html)
        "gm_form": gm_form or SimpleLazyObject(state.gm_form),
        "gm_part_cache_key": None if gm_form else gm_part_key(state),
        "my_gm_orders": gm_orders.own(state) if state.seat.power_id else None,
        "order": state.my_order,
        "standing_orders_of": standing_turn(state),
        "standing_form": standing_form or state.standing_form(),
        "decision_form": decision_form or state.decision_form(),
    }


def standing_turn(state: CampaignState) -> str | None:
    """The turn whose standing orders fill in the seat's form, in the reader's words."""
    order = state.standing_order
    if order is None:
        return None
    return localized(state.rules.turn_label(order.phase.turn, state.campaign.setup))


def away_panel(seat: Seat, form: AwayForm | None = None) -> dict | None:
    """The away panel of a power's player: the period, and the form to set one."""
    if seat.power_id is None:
        return None
    return {"period": presenters.away_period(seat), "form": form or AwayForm()}


def page_context(state: CampaignState, **forms) -> dict:
    """Everything the campaign page shows; the spaces a decision may choose are
    highlighted on the map for whoever may make it, and a seated power reads what
    happened to it in the last resolved phase."""
    context = orders_context(state, **forms)
    decision = context["decision_form"]
    highlight = answerable_highlight(decision)
    newest, last_phase = page_events(state)
    seeded = state.campaign.dice_mode == Campaign.DiceMode.SEEDED
    mine = None
    if state.seat.power_id:
        mine = summary.for_power(
            last_phase, state.seat.power, state.rules, state.campaign.setup, state.viewer
        )
    return {
        **context,
        **map_context(state, highlight),
        "log": presenters.log_groups(
            newest, state.rules, state.campaign.setup, seeded, state.viewer
        ),
        "progress": progress.on_page(state),
        "summary": mine,
        "away": away_panel(state.seat),
        "gm_quiet": quiet_for(state.seat),
        "extension": extension_offer(state.seat),
    }


def page_events(state: CampaignState) -> tuple[list[Event], list[Event]]:
    """The newest LOG_LIMIT log lines (newest first) and, for a seated power, the lines of
    the last resolved phase that may concern it, oldest first."""
    return log.page_lines(state.campaign, state.seat.power_id, LOG_LIMIT)


def map_view(state: CampaignState, highlight: set[str] = frozenset()) -> presenters.MapView:
    """The map for this seat, with ``highlight`` areas marked (an answer's path)."""
    areas = [{name: getattr(a, name) for name in MAP_AREA_FIELDS} for a in state.areas]
    return presenters.map_view(
        areas,
        state.powers,
        state.world,
        state.presenter,
        state.viewer,
        highlight,
        shapes=campaign_map(state.campaign),
        own_power_id=state.seat.power_id,
        orders=readable_payloads(state),
    )


def map_look(state: CampaignState) -> str:
    """A digest of the map as this seat's page draws it (no highlight), kept in the cache
    for the campaign's version and view: what a GM edit compares, before and after, to
    know whether the map changed, so that each edit draws it once, not twice (the
    "before" is the previous answer's "after"). Equal rows pickled apart may differ in
    bytes: at worst an unchanged map is sent again, never a changed one left out."""
    key = ":".join(map(str, ["courier_map_look", *state_view(state), state.seat.pk]))
    look = cache.get(key)
    if look is None:
        look = hashlib.sha256(pickle.dumps(map_view(state).rows)).hexdigest()
        cache.set(key, look, None)
    return look


# What a map's highlighted areas are, for its legend and the areas' spoken labels:
# spaces the reader may choose for the decision above, the spaces a decision under way
# may choose (the GM's view), or the areas of a question's answer.
CHOOSE, DECISION, ANSWER = "choose", "decision", "answer"
MAP_SALT = "courier.map"


def state_view(state: CampaignState) -> list:
    """What a drawing of the state depends on, as a cache key's first parts: the
    campaign's version (any change, orders included) and its state's stamp (which another
    history of the campaign, a restore's, does not share), the reader's language and the
    hidden-information view of the state they are shown."""
    sees = "all" if state.viewer is None else ",".join(sorted(state.viewer))
    campaign = state.campaign
    return [campaign.pk, campaign.version, campaign.state_stamp, get_language(), sees]


def map_context(state: CampaignState, highlight: set[str], kind: str = CHOOSE) -> dict:
    """The map for the page's template, drawn only if the cache has not got it: keyed by
    the campaign's version (any change, orders included) and what this seat sees (its
    hidden-information view, the orders it may read, its own power, the highlighted areas),
    so that readers who see the same thing share one drawing and no other reader gets it.
    ``map_url`` loads it after the page (campaign.views.maps.map_panel), signed for this
    reader so that it is served from the cache without reading the state again."""
    seat = state.seat
    reads = "every" if sealing.reads_every_order(seat, state.orders) else "own"
    if reads == "own":  # whose orders: a co-GM reads those of the power another GM plays
        reads = f"own-{sealing.played_power_id(seat) or ''}"
    shown = sorted(highlight)
    key = [*state_view(state), reads, seat.power_id or "", ",".join(shown), kind if shown else ""]
    key = ":".join(map(str, key))
    token = signing.dumps([seat.user_id, key, shown, kind], salt=MAP_SALT, compress=True)
    url = reverse("campaign:map", args=[state.campaign.pk])
    return {
        "map": SimpleLazyObject(lambda: map_view(state, highlight)),
        "map_cache_key": key,
        "map_highlight": kind,
        "map_url": f"{url}?{urlencode({'k': token})}",
        "map_frame": map_frame(state.campaign),
        "map_table_url": reverse("campaign:area_table", args=[state.campaign.pk]),
    }


def map_frame(campaign) -> str:
    """The drawn map's frame as an SVG view box (its scenario's, a file read once), for
    the panel to hold the map's room until the drawing arrives; a diagram's: 4 by 3."""
    built = built_map(campaign.scenario)
    return f"0 0 {built.width:g} {built.height:g}" if built else "0 0 4 3"


def signed_map(token: str, seat: Seat) -> tuple[str, set[str], str] | None:
    """The cache key, highlighted areas and their kind that ``map_context`` signed in a
    ``map_url`` for this seat's user, or None (no token, altered, or another user's)."""
    try:
        user_id, key, shown, kind = signing.loads(token, salt=MAP_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if user_id != seat.user_id or kind not in (CHOOSE, DECISION, ANSWER):
        return None
    return key, set(shown), kind


def answerable_highlight(decision) -> set[str]:
    """The spaces the decision under way may choose, highlighted on the campaign page
    for whoever may make it."""
    return set(decision.highlight) if decision is not None and decision.answerable else set()


def readable_payloads(state: CampaignState) -> dict[str, dict]:
    """The open phase's orders the seat may read (campaign/core/sealing.py), by power key."""
    keys = {power.pk: power.key for power in state.powers}
    readable = sealing.readable_orders(state.seat, state.orders)
    return {keys[pk]: order.payload for pk, order in readable.items() if pk in keys}


def log_added(state: CampaignState, since: int | None) -> presenters.LogGroup | None:
    """The log lines written after line ``since`` (the newest the page shows), as the
    group whose lines on the page they follow; None when they cannot simply follow them
    (the page did not say what it shows, none the reader sees was added, the lines are of
    several phases or of another phase than line ``since``): the log is sent whole."""
    if not since:
        return None
    seeded = state.campaign.dice_mode == Campaign.DiceMode.SEEDED
    added = log.lines_after(state.campaign, since)
    groups = presenters.log_groups(added, state.rules, state.campaign.setup, seeded, state.viewer)
    if len(groups) != 1 or groups[0].phase_id is None:
        return None
    follows = log.is_line_of(state.campaign, since, groups[0].phase_id)
    return groups[0] if follows else None


def log_lines(state: CampaignState, limit: int) -> list[presenters.LogGroup]:
    """The newest ``limit`` log lines, grouped by phase."""
    seeded = state.campaign.dice_mode == Campaign.DiceMode.SEEDED
    return presenters.log_groups(
        log.newest_lines(state.campaign, limit),
        state.rules,
        state.campaign.setup,
        seeded,
        state.viewer,
    )
