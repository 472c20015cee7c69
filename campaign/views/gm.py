"""The GM dashboard: readiness, resolving the phase, seats, options and state edits.

Every change is a POST. Sent by the dashboard's HTMX form, a change of the schedule,
seats, lobby, press rules, options or orders for the GM answers in place: its section
again, saying what was done, and out of band what else it changed (``IN_PLACE``).
Otherwise, and for what changes the whole page (starting, resolving, rolling back,
ending), it redirects back to the dashboard with a message. A refused change answers
with the reason and a 4xx status, having changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign import presenters
from campaign.core import sealing, watching
from campaign.core.changes import expecting_state
from campaign.errors import Conflict, ServiceError
from campaign.jobs import heartbeat
from campaign.models import Campaign, Seat
from campaign.people import lobby
from campaign.people.forms import LobbyForm
from campaign.people.gm_team import team_of as gm_team_of
from campaign.play import gm_orders, scheduling
from campaign.play.envelope_forms import LogSeenForm
from campaign.play.extension_forms import ExtensionRulesForm
from campaign.play.extensions import budgets as extension_budgets
from campaign.play.forms import (
    AbsentForm,
    AdvanceForm,
    AssignSeatForm,
    ClockForm,
    DeadlineForm,
    OptionsForm,
    PlayerRulesForm,
    PlaysForm,
    ScheduleForm,
    StateVersionForm,
)
from campaign.play.gm_order_forms import RevealForm
from campaign.play.lifecycle import runs_by_itself
from campaign.play.services import (
    add_observer_seat,
    assign_seat,
    gm_plays,
    resolve_open_phase,
    set_deadline,
    set_options,
    start_running,
)
from campaign.press.press_forms import PressRulesForm
from campaign.records import rollback
from campaign.selectors.seats import campaign_seats
from campaign.views import refusals
from campaign.views.access import campaign_seat, error_text, gm_seat
from campaign.views.context import (
    CHOOSE,
    DECISION,
    CampaignState,
    load_state,
    log_added,
    log_lines,
    map_context,
    panels,
)
from campaign.views.edit_panels import edit_panels

GM_LOG_LIMIT = 50

GM_PAGE = "campaign/gm.html"
# A section of the dashboard that answers its controls in place (by the anchor its view
# goes back to), and the other fragments those controls change. Who owes orders, the log
# and the state version every form carries come with every answer.
IN_PLACE = {
    "#phase": (f"{GM_PAGE}#phase", (f"{GM_PAGE}#lead",)),
    "#schedule": (f"{GM_PAGE}#schedule", (f"{GM_PAGE}#lead", f"{GM_PAGE}#phase")),
    "#seats": (
        f"{GM_PAGE}#seats",
        (f"{GM_PAGE}#phase", f"{GM_PAGE}#orders_given", "campaign/lobby.html#gm_panel"),
    ),
    "#lobby": ("campaign/lobby.html#gm_panel", (f"{GM_PAGE}#seats", f"{GM_PAGE}#phase")),
    "#press-rules": (f"{GM_PAGE}#press_rules", ()),
    "#options": (
        f"{GM_PAGE}#options",
        (
            f"{GM_PAGE}#lead",
            f"{GM_PAGE}#phase",
            "campaign/detail.html#sequence",
            "campaign/detail.html#ruleset_panels",
        ),
    ),
    "#gm-orders": ("campaign/gm_orders.html#dashboard", ()),
    "#gms": ("campaign/gm_team.html#dashboard", (f"{GM_PAGE}#seats",)),
    "#extensions": ("campaign/extensions.html#gm_panel", ()),
}


@login_required
def dashboard(request, campaign_id: int):
    state = load_state(gm_seat(request.user, campaign_id))
    return render(request, GM_PAGE, dashboard_context(request, state))


@login_required
@require_POST
def start(request, campaign_id: int):
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        None,
        lambda _: start_running(campaign_id=campaign_id, actor=request.user),
        gettext("The campaign has started."),
        anchor="#phase",
    )


@login_required
@require_POST
def advance(request, campaign_id: int):
    """Close and resolve the open phase (with GM-entered dice if the campaign uses them)."""
    state = load_state(gm_seat(request.user, campaign_id))
    form = advance_form(state.campaign, request.POST)

    def resolve(data: dict) -> str:
        opened = resolve_open_phase(
            campaign_id=campaign_id,
            expected_phase_id=data["phase"],
            actor=request.user,
            faces=form.dice_faces(),
        )
        resolved = state.spec.name if state.spec else gettext("The phase")
        if opened.status == opened.Status.WAITING:
            return gettext("%(phase)s is under way and waits for a decision.") % {"phase": resolved}
        return gettext("%(phase)s resolved; %(next)s is open.") % {
            "phase": resolved,
            "next": state.rules.phase(opened.key).name,
        }

    return perform(request, state, form, resolve)


@login_required
@require_POST
def seat(request, campaign_id: int, seat_id: int):
    """Seat a user (by user name) or empty the seat."""
    state = load_state(gm_seat(request.user, campaign_id))
    target = campaign_seat(campaign_id, seat_id)
    return perform(
        request,
        state,
        AssignSeatForm(request.POST),
        lambda data: assign_seat(seat=target, user=data["username"], actor=request.user),
        gettext("Seat updated."),
        anchor="#seats",
    )


@login_required
@require_POST
def options(request, campaign_id: int):
    """The rule options (Decisions) and the dice mode."""
    state = load_state(gm_seat(request.user, campaign_id))
    form = OptionsForm.for_campaign(state.campaign, request.POST)
    return perform(
        request,
        state,
        form,
        lambda data: set_options(
            campaign_id=campaign_id,
            options=form.options(),
            dice_mode=data["dice_mode"],
            actor=request.user,
        ),
        gettext("Options saved."),
        anchor="#options",
    )


@login_required
@require_POST
def deadline(request, campaign_id: int):
    """Set or clear the open phase's deadline."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        DeadlineForm(request.POST),
        lambda data: set_deadline(
            campaign_id=campaign_id,
            phase_id=data["phase"],
            deadline=data["deadline"],
            actor=request.user,
        ),
        gettext("Deadline saved."),
        anchor="#phase",
    )


@login_required
@require_POST
def clock(request, campaign_id: int):
    """Extend, pause or resume the open phase's deadline."""
    state = load_state(gm_seat(request.user, campaign_id))
    actions = {
        "extend": scheduling.extend_deadline,
        "pause": scheduling.pause_deadline,
        "resume": scheduling.resume_deadline,
    }

    def act(data: dict) -> str:
        extra = {"hours": data["hours"]} if data["action"] == "extend" else {}
        actions[data["action"]](
            campaign_id=campaign_id, phase_id=data["phase"], actor=request.user, **extra
        )
        return {
            "extend": gettext("Deadline extended."),
            "pause": gettext("Deadline paused."),
            "resume": gettext("Deadline resumed."),
        }[data["action"]]

    return perform(request, state, ClockForm(request.POST), act, anchor="#phase")


@login_required
@require_POST
def schedule(request, campaign_id: int):
    """Automatic resolution, default deadlines per phase kind, the webhook."""
    state = load_state(gm_seat(request.user, campaign_id))
    form = ScheduleForm.for_campaign(state.campaign, request.POST)

    def save(data: dict) -> str:
        said = scheduling.set_schedule(
            campaign_id=campaign_id,
            auto_resolve=data["auto_resolve"],
            deadline_hours=form.deadline_hours(),
            webhook_url=data["webhook_url"],
            webhook_format=data["webhook_format"] or None,
            actor=request.user,
            paused=data["paused"],
            apply_to_open=data["apply_to_open"],
        )
        return f"{gettext('Schedule saved.')} {said}".strip()

    return perform(request, state, form, save, anchor="#schedule")


@login_required
@require_POST
def absent(request, campaign_id: int, power_id: int):
    """Mark a power absent (default orders) or back."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        AbsentForm(request.POST),
        lambda data: scheduling.set_absent(
            campaign_id=campaign_id, power_id=power_id, absent=data["absent"], actor=request.user
        ),
        gettext("Seat updated."),
        anchor="#seats",
    )


@login_required
@require_POST
def plays(request, campaign_id: int):
    """The GM also plays a power, or stops."""
    state = load_state(gm_seat(request.user, campaign_id))
    form = PlaysForm.for_campaign(state.campaign, request.POST)
    return perform(
        request,
        state,
        form,
        lambda data: gm_plays(
            campaign_id=campaign_id, power_key=data["power"] or None, actor=request.user
        ),
        gettext("Seat updated."),
        anchor="#seats",
    )


@login_required
@require_POST
def observer(request, campaign_id: int):
    """Open an observer seat; its invitation link appears in the seats table."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        None,
        lambda _: add_observer_seat(campaign_id=campaign_id, actor=request.user),
        gettext("Observer seat opened: send its invitation link."),
        anchor="#seats",
    )


# -- helpers ------------------------------------------------------------------------


def act(
    request, state: CampaignState, form, action: Callable[[dict], object], refusal_prefix=""
) -> object:
    """Validate the form and call the service; what it returns, or the ServiceError that
    refused it (an invalid form's errors too).

    Every GM form carries the campaign's state version it was shown at: the action runs
    only while the campaign is still in that state, so a form sent twice, replayed or
    overtaken by another change is refused (a Conflict: shown with the state as it now
    is, ``shown_after``) and changes nothing."""
    expected = StateVersionForm(request.POST)
    if not expected.is_valid():
        raise ServiceError(error_text(expected))
    if form is not None and not form.is_valid():
        raise ServiceError(f"{refusal_prefix}{error_text(form)}")
    with expecting_state(state.campaign.pk, expected.cleaned_data["state_version"]):
        return action(form.cleaned_data if form is not None else {})


def shown_after(request, state: CampaignState, error: ServiceError) -> CampaignState:
    """The state a refusal is shown with: as it now is when the page was out of date (a
    Conflict), else the page's."""
    if isinstance(error, Conflict):
        return load_state(gm_seat(request.user, state.campaign.pk))
    return state


def perform(
    request,
    state: CampaignState,
    form,
    action: Callable[[dict], object],
    success: str = "",
    *,
    refusal_prefix: str = "",
    anchor: str = "",
):
    """``act``, then back to the dashboard with a message; a refusal renders the
    dashboard with the reason. ``success`` empty: the service's return is the message.
    Sent by HTMX from a section that answers in place (``anchor`` in ``IN_PLACE``): that
    section and what the change touched, instead of the whole page."""
    in_place = request.htmx and anchor in IN_PLACE
    try:
        result = act(request, state, form, action, refusal_prefix)
    except ServiceError as error:
        shown = shown_after(request, state, error)
        if in_place:
            return answer_in_place(request, state, shown, anchor, error)
        return refuse(request, error, shown)
    notice = success or str(result)
    if in_place:
        shown = load_state(gm_seat(request.user, state.campaign.pk))
        return answer_in_place(request, state, shown, anchor, notice)
    messages.success(request, notice)
    return redirect(reverse("campaign:gm", args=[state.campaign.pk]) + anchor)


def answer_in_place(request, before: CampaignState, shown: CampaignState, anchor, outcome):
    """The section of ``anchor`` as it now is, saying ``outcome`` (a notice, or the
    ServiceError that refused the change), with out of band what the change touched."""
    section, also = IN_PLACE[anchor]
    return answer_change(
        request,
        before,
        shown,
        outcome,
        f"{GM_PAGE}#in_place",
        lambda: {**dashboard_context(request, shown), "answered": section, "also": also},
    )


def answer_change(
    request,
    before: CampaignState,
    shown: CampaignState,
    outcome,
    template: str,
    context: Callable[[], dict],
):
    """What every change answered in place says: ``template`` with ``context()``, the
    notice of ``outcome`` (a ServiceError's reason, with its status) and, unless refused, the
    log's lines after those the page shows; the whole dashboard again, with the notice,
    when the phase moved on or the campaign ended meanwhile (a rollback, the end)."""
    refused = isinstance(outcome, ServiceError)
    notice = str(outcome) if refused else outcome
    if moved_on(before, shown):
        (messages.error if refused else messages.success)(request, notice)
        return HttpResponseClientRedirect(reverse("campaign:gm", args=[before.campaign.pk]))
    answer = {
        **context(),
        "notice": notice,
        "notice_level": "error" if refused else "success",
        "log_added": None if refused else log_added(shown, seen_line(request)),
    }
    return render(request, template, answer, status=refusals.status_of(outcome) if refused else 200)


def moved_on(before: CampaignState, after: CampaignState) -> bool:
    """Whether the whole page changed between the two: another phase opened, the open
    one changed status, the campaign ended, or the GM took or left a power (what the
    page may show is another)."""

    def where(state: CampaignState) -> tuple:
        return (
            state.campaign.phase_id,
            state.phase and state.phase.status,
            state.campaign.ended_at,
            state.seat.power_id,
        )

    return where(before) != where(after)


def refuse(request, error: ServiceError, state: CampaignState):
    """The dashboard of ``state``, saying why ``error`` refused."""
    return refusals.refuse(request, error, GM_PAGE, dashboard_context(request, state))


def advance_form(campaign: Campaign, data=None) -> AdvanceForm:
    scripted = campaign.dice_mode == Campaign.DiceMode.SCRIPTED
    initial = {"phase": campaign.phase_id}
    return AdvanceForm(data, scripted=scripted, initial=initial)


def gm_order_rows(state: CampaignState) -> list | None:
    """The powers' orders for the open phase; None while a GM who plays has not sealed
    their own (they see the others' only after)."""
    if state.phase is None:
        return []
    if not sealing.reads_every_order(state.seat, state.orders):
        return None
    said = presenters.orders_said(state.presenter, state.world)
    return presenters.order_rows(state.powers, state.orders, gm_orders.line_texts(state), said)


def seen_line(request) -> int | None:
    """The newest log line the page that sent ``request`` shows; None when it does not say."""
    return LogSeenForm(request.POST).values["log_seen"]


def seat_rows(request, seats: list[Seat]) -> list[dict]:
    return [
        {
            "seat": s,
            "invite": request.build_absolute_uri(reverse("campaign:join", args=[s.invite_token])),
            "form": AssignSeatForm(
                initial={"username": s.user.get_username() if s.user_id else ""},
                auto_id=f"id_seat_{s.pk}_%s",
            ),
            "away": presenters.away_period(s),
        }
        for s in seats
        if not s.is_gm
    ]


def dashboard_context(
    request, state: CampaignState, opened: tuple[str, str] = ("", ""), prefilled=None
) -> dict:
    """The dashboard; ``opened``: the (edit, item) of a long list whose form is shown
    (``prefilled``: from an order for the GM)."""
    shown = state_context(state)
    every = campaign_seats(state.campaign)
    seats = seat_rows(request, every)
    resolves_itself = runs_by_itself(state.campaign)
    return {
        **shown,
        "advance_form": advance_form(state.campaign),
        "deadline_form": DeadlineForm(
            initial={
                "phase": state.campaign.phase_id,
                "deadline": state.phase and state.phase.deadline,
            }
        ),
        "options_form": OptionsForm.for_campaign(state.campaign),
        "press_form": PressRulesForm.for_campaign(state.campaign),
        "schedule_form": ScheduleForm.for_campaign(state.campaign),
        "plays_form": PlaysForm.for_campaign(state.campaign),
        "resolves_itself": resolves_itself,
        # the clock or the worker not seen running, where that stops the campaign: read
        # (one query) only where the whole page is drawn
        "stalled": SimpleLazyObject(
            lambda: heartbeat.stale() if resolves_itself and not state.campaign.ended_at else []
        ),
        "not_ready": [
            row.power
            for row in shown["readiness"]
            if row.awaited == "owes" and row.status != "ready"
        ],
        "seats": seats,
        "gm_team": gm_team_of(every, request.build_absolute_uri),
        "free_seats": [
            row["seat"].power.display_name
            for row in seats
            if row["seat"].role == Seat.Role.PLAYER and row["seat"].user_id is None
        ],
        "lobby_form": LobbyForm.for_campaign(state.campaign, state.powers),
        "player_rules_form": PlayerRulesForm(instance=state.campaign),
        "watchers_said": watching.description(state.campaign, state.rules, state.powers),
        "seat_requests": lobby.waiting_requests(state.campaign),
        "edit_panels": edit_panels(state, opened, prefilled),
        "extension_form": ExtensionRulesForm.for_campaign(state.campaign),
        # read only where the extensions' panel is drawn
        "extension_budgets": SimpleLazyObject(lambda: extension_budgets(state.campaign)),
    }


def state_context(state: CampaignState) -> dict:
    """What the dashboard shows of the state (the panels, the orders given and those for
    the GM, the map, the log), without its controls: what an edit changes."""
    decision = state.decision_form()
    log = SimpleLazyObject(lambda: log_lines(state, GM_LOG_LIMIT))
    return {
        **panels(state),
        "decision_form": decision,
        "order_rows": gm_order_rows(state),
        "gm_orders": gm_orders.readable(state),
        "reveal_form": RevealForm(initial={"reveal": gm_orders.reveals(state.campaign)}),
        **map_context(
            state,
            set(decision.highlight) if decision else set(),
            CHOOSE if decision is not None and decision.answerable else DECISION,
        ),
        # drawn only where the whole log is sent (an in-place answer sends its new lines)
        "log": log,
        # where the log the page shows ends: the GM's forms send it back (log_added)
        "log_seen": SimpleLazyObject(lambda: presenters.newest_line_id(log)),
        "rollback": rollback.preview(state.campaign),
    }
