"""Campaign services: starting a campaign, resolving phases, decisions, orders, seats,
options.

Every change goes through here inside one transaction that first locks the campaign
row (campaign/core/changes.py); a phase opens, finishes and the next opens by
campaign/play/lifecycle.py. Ruleset-specific state is read and written by each ruleset's own
phase services (rules/<ruleset>/services.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core import sealing, standing
from campaign.core.changes import locked_campaign, log, moment_text, refuse_if_ended
from campaign.core.readiness import PAUSED_CAMPAIGN, away_at
from campaign.errors import Conflict, DiceError, PhaseAlreadyResolved, PhaseClosed, ServiceError
from campaign.models import Campaign, Event, Order, Phase, Power, Seat, Tenure
from campaign.play import (
    away_everywhere,
    disorder,
    gm_orders,
    lifecycle,
    reliability,
    replacements,
    tenures,
)
from campaign.state import history
from rules.dice import DiceExhausted, ScriptedDice, SeededDice
from rules.gm_orders import keep_done, without_lines
from rules.text import Text, message_of
from rules.translation import Term, localized


@dataclass
class PhaseContext:
    """What a ruleset's phase service gets: the locked campaign, the phase and the orders.
    The service may leave ``world``, the World as it wrote it, for the next phase to read
    who owes orders in it without loading the state again."""

    campaign: Campaign
    phase: Phase
    orders: dict[str, dict]
    dice: SeededDice | ScriptedDice
    actor: object
    world: Any = None
    # the powers the log already says gave no orders and do the ruleset's default
    # (Ruleset.default_orders): the service need not say it again
    defaulted: frozenset[str] = frozenset()


def seat_for(user, campaign_id: int) -> Seat:
    """The user's seat in the campaign, with ``gm_team_power_id``: the power a GM of the
    campaign plays (what a co-GM's reading is sealed by: campaign/core/sealing.py); 404 for
    anyone without a seat."""
    if not getattr(user, "is_authenticated", False):
        raise Http404("No such campaign.")
    playing = Seat.objects.filter(
        campaign=OuterRef("campaign_id"), role=Seat.Role.GM, power__isnull=False
    )
    seat = (
        Seat.objects.select_related("campaign", "power", "campaign__phase", "campaign__drawn_map")
        .defer("campaign__drawn_map__document")  # read only when the map is drawn
        .filter(campaign_id=campaign_id, user=user)
        .annotate(gm_team_power_id=Subquery(playing.values("power_id")[:1]))
        .first()
    )
    if seat is None:
        raise Http404("No such campaign.")
    return seat


# -- phases -------------------------------------------------------------------------


def start_campaign(campaign: Campaign, *, actor) -> Phase:
    """Open the first phase of turn 1."""
    with transaction.atomic():
        campaign = locked_campaign(campaign.pk)
        if campaign.phase_id is not None:
            raise Conflict(_("This campaign has already started."))
        phase = lifecycle.open_phase(campaign, campaign.turn, 0)
        _publish_secret_hash(campaign, actor)
        campaign.bump_version()
        return phase


def start_running(*, campaign_id: int, actor) -> Campaign:
    """The GM starts the campaign (lifecycle.begin): the open phase's deadline runs from
    now by the schedule, and a phase that waits for nobody resolves. A campaign without
    a phase yet (one made by a script) opens its first phase too."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        refuse_if_ended(campaign)
        if campaign.started_at is not None and campaign.phase_id is not None:
            raise Conflict(_("This campaign has already started."))
        if campaign.phase_id is None:
            start_campaign(campaign, actor=actor)
            campaign = locked_campaign(campaign_id)
        if campaign.started_at is None:
            lifecycle.begin(campaign, actor=actor)
        return campaign


def _publish_secret_hash(campaign: Campaign, actor) -> None:
    """For a ruleset with hidden draws, the SHA-256 of the campaign's secret goes into the
    log as the campaign starts: the verify pages compare the secret with it once revealed
    (campaign/records/verify.py published_secret_hash)."""
    if campaign.rules.draw_rule:
        text = Text(
            "The hidden draws follow the campaign's secret, revealed when the campaign ends; "
            "its SHA-256 is %(secret_hash)s.",
            secret_hash=campaign.secret_hash,
        )
        log(campaign, Event.Kind.PHASE, text, actor=actor)


def _dice_for(campaign: Campaign, phase: Phase, faces: list[int] | None):
    if campaign.dice_mode == Campaign.DiceMode.SCRIPTED:
        if faces is None:
            raise DiceError(_("This campaign uses GM-entered dice: enter the faces to roll."))
        try:
            return ScriptedDice(list(faces))
        except ValueError as error:
            raise DiceError(str(error)) from None
    return SeededDice(phase.seed, phase.dice_context)


def resolve_open_phase(
    *, campaign_id: int, expected_phase_id: int, actor, faces: list[int] | None = None
) -> Phase:
    """Resolve the open phase once and open the next; returns the newly opened phase, or
    the same phase when a procedure in it now waits for a power's decision (decide()).

    A second request for the same phase waits on the campaign lock, then finds the
    phase already moved on and raises PhaseAlreadyResolved. Any error rolls back all.
    """
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        refuse_if_ended(campaign)
        if campaign.phase_id != expected_phase_id:
            raise PhaseAlreadyResolved(_("This phase has already been resolved."))
        phase = Phase.objects.select_for_update().get(pk=expected_phase_id)
        spec = campaign.rules.phase(phase.key)
        if phase.status == Phase.Status.WAITING:
            raise Conflict(
                _("%(phase)s is under way and waits for a decision.") % {"phase": spec.name}
            )
        history.resolution_starts(campaign, phase)  # where its resolution begins, for a rollback
        dice = _dice_for(campaign, phase, faces)
        orders, defaulted = _orders_for(campaign, phase)
        try:
            resolve = campaign.rules.hooks.phase(spec.key).resolve
            context = PhaseContext(campaign, phase, orders, dice, actor, defaulted=defaulted)
            result = resolve(context)
        except DiceExhausted as error:
            reason = localized(error.args[0])
            raise DiceError(_("Not enough dice entered: %(error)s.") % {"error": reason}) from None
        if isinstance(dice, ScriptedDice) and dice.unused:
            raise DiceError(
                _(
                    "%(entered)s faces were entered but the phase rolled %(rolled)s: enter "
                    "exactly the dice it needs."
                )
                % {"entered": len(dice.faces), "rolled": len(dice.rolls)}
            )
        return lifecycle.go_on(campaign, phase, result, actor, context.world)


def decide(*, seat: Seat, phase_id: int, answer: dict, actor, version: int | None = None) -> Phase:
    """A power's (or the GM's) answer to the decision a procedure waits for; the phase
    goes on and, when nothing more is asked, resolves and the next opens. ``version``:
    the campaign's version the answer was given at; a later one means the question may
    have changed (a double submission, another answer) and nothing is done."""
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        refuse_if_ended(campaign)
        phase = campaign.phase
        if campaign.phase_id != phase_id or phase.status != Phase.Status.WAITING:
            raise PhaseClosed(_("That decision is no longer asked: nothing was changed."))
        if version is not None and version != campaign.version:
            raise PhaseClosed(
                _(
                    "The decision has moved on since the page was loaded: nothing was changed. "
                    "Reload the page to see what is asked now."
                )
            )
        power_key = seat.power.key if seat.power_id else None
        result = campaign.rules.hooks.decisions.decide(
            campaign=campaign,
            phase=phase,
            power_key=power_key,
            answer=answer,
            actor=actor,
            as_gm=seat.is_gm,
        )
        history.record_decision(campaign, phase, seat, answer, actor)  # for a replay
        return lifecycle.go_on(campaign, phase, result, actor)


def _default_orders_line(power: Power, rules) -> Text:
    """The log line for a power that gave no orders: what the ruleset makes it do."""
    does = Term(rules.default_orders)
    if power.in_disorder:
        return Text(
            "%(power)s (in civil disorder) gave no orders: %(does)s.",
            power=power.display_name,
            does=does,
        )
    if power.absent:
        return Text(
            "%(power)s (absent) gave no orders: %(does)s.", power=power.display_name, does=does
        )
    if power.away:
        return Text(
            "%(power)s (away) gave no orders: %(does)s.", power=power.display_name, does=does
        )
    return Text("%(power)s gave no orders: %(does)s.", power=power.display_name, does=does)


def _seat_name(seat: Seat) -> str:
    """A seat as the log names it: its power, else its role."""
    return seat.power.display_name if seat.power_id else Term(Seat.Role(seat.role).label)


def _orders_for(campaign: Campaign, phase: Phase) -> tuple[dict[str, dict], frozenset[str]]:
    """The saved orders by power key; drafts are used as saved, and a power that gave
    none (a power with a player) gets the ruleset's default orders: the log says both.
    With them, the keys of the powers whose default orders the log has said."""
    saved = list(phase.orders.select_related("power"))
    spec, rules = campaign.rules.phase(phase.key), campaign.rules
    away = Seat.objects.filter(away_at(timezone.now()), power=OuterRef("pk"))
    carried = standing.carry_over(campaign, phase, {order.power_id for order in saved})
    given = {order.power_id for order in saved + carried}
    lines = (
        [
            (
                order.power,
                Text(
                    "%(power)s's orders were saved but not marked ready; they are used as saved.",
                    power=order.power.display_name,
                ),
            )
            for order in saved
            if not order.ready
        ]
        + [(order.power, _standing_line(order, rules)) for order in carried]
        + [
            (power, _default_orders_line(power, rules))
            for power in campaign.powers.filter(seats__user__isnull=False).annotate(
                away=Exists(away)
            )
            if power.pk not in given and phase.waits_for(spec, power.key)
        ]
    )
    Event.objects.bulk_create(
        Event(
            campaign=campaign,
            phase=phase,
            turn=campaign.turn,
            kind=Event.Kind.ORDER,
            power=power,
            text=text,
            message=message_of(text),
        )
        for power, text in lines
    )
    gm_orders.reveal(campaign, phase, saved)  # the lines for the GM, which the rules ignore
    disorder.count_turnout(campaign, phase, {order.power_id for order in saved})
    defaulted = frozenset(power.key for power, _text in lines if power.pk not in given)
    return {order.power.key: without_lines(order.payload) for order in saved + carried}, defaulted


def _standing_line(order: Order, rules) -> Text:
    """The log line for a power whose standing orders of an earlier phase stand."""
    origin = order.origin.phase
    return Text(
        "%(power)s gave no new orders: its standing orders of %(turn)s stand.",
        power=order.power.display_name,
        turn=rules.turn_label(origin.turn, order.campaign.setup),
    )


# -- orders -------------------------------------------------------------------------


def submit_orders(*, seat: Seat, phase_id: int, payload: dict, ready: bool, actor) -> Order:
    """Save a power's orders for the open phase (a draft, or ready); its lines for the GM
    that the GM has carried out stay marked so where they are given again unchanged."""
    if seat.power_id is None:
        raise ServiceError(_("Only a power's player gives orders."))
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        refuse_if_ended(campaign)
        seat = _still_held(seat)
        if campaign.phase_id != phase_id:
            raise PhaseClosed(_("This phase is closed: your orders were not saved."))
        spec = campaign.rules.phase(campaign.phase.key)
        if not spec.takes_orders:
            raise PhaseClosed(_("This phase takes no orders."))
        if campaign.phase.status == Phase.Status.WAITING:
            raise PhaseClosed(_("The action is under way: orders can no longer change."))
        if not spec.takes_orders_from(seat.power.key):
            raise ServiceError(
                _("%(phase)s is not %(power)s's to order.")
                % {"phase": spec.name, "power": seat.power.display_name}
            )
        own = campaign.phase.orders.filter(power_id=seat.power_id).first()
        if seat.is_gm and sealing.is_sealed(own):
            raise PhaseClosed(
                _(
                    "Your orders are sealed: a GM who plays marks them ready once, before "
                    "seeing the others'."
                )
            )
        if not seat.is_gm and sealing.is_sealed(own) and sealing.sealed_by_gm(own, _gms(campaign)):
            raise PhaseClosed(
                _(
                    "%(power)s's orders for this phase were sealed by the GM who played it: "
                    "they stand as they are until the phase is resolved."
                )
                % {"power": seat.power.display_name}
            )
        order = _saved_order(own, phase_id, seat.power_id, campaign, payload, ready, actor)
        disorder.player_is_back(campaign, seat, actor)
        if ready:
            lifecycle.resolve_when_everyone_is_ready(campaign, campaign.phase)
        names = {"power": seat.power.display_name, "phase": Term(spec.name)}
        if ready:
            text = Text("%(power)s marked its orders ready for %(phase)s.", **names)
        else:
            text = Text("%(power)s saved its orders as a draft for %(phase)s.", **names)
        _log_save(campaign, seat.power, text, actor=actor, rule=spec.rules[0])
        campaign.bump_version(state=False)
        return order


def _saved_order(own, phase_id, power_id, campaign, payload, ready, actor) -> Order:
    """The power's Order row for the phase, written: ``own``, the row read under the
    campaign's lock (no other save can create or change it meanwhile), or a new one."""
    values = {
        "campaign": campaign,
        "payload": keep_done(own and own.payload, payload),
        "ready": ready,
        "submitted_by": actor,
    }
    if own is None:
        return Order.objects.create(phase_id=phase_id, power_id=power_id, **values)
    for name, value in values.items():
        setattr(own, name, value)
    own.save(update_fields=[*values, "updated_at"])
    return own


def _log_save(campaign: Campaign, power: Power, text: Text, *, actor, rule: str) -> None:
    """Log a save of a power's orders, one line per power for what it last did: saved
    again as it was (a draft after a draft, ready after ready), its line of the earlier
    save by the same user goes and the new one ends the log, so that saving three times
    makes one line, not three. Nothing is lost: the log keeps the power's latest save,
    with its time and who made it, every change between a draft and ready, and a save
    by another user (the GM for the player)."""
    earlier = (
        Event.objects.filter(
            campaign=campaign, phase_id=campaign.phase_id, power=power, kind=Event.Kind.ORDER
        )
        .order_by("-pk")
        .first()
    )
    same_save = earlier is not None and earlier.message == message_of(text)
    if same_save and earlier.actor_id == getattr(actor, "pk", None):
        earlier.delete()
    log(campaign, Event.Kind.ORDER, text, actor=actor, power=power, rule=rule)


def _still_held(seat: Seat) -> Seat:
    """The seat as it stands under the campaign's lock, while its user still holds it as
    the same power's player (a replacement may have taken it since the page was loaded)."""
    now = Seat.objects.select_related("power").filter(pk=seat.pk).first()
    if now is None or (now.user_id, now.power_id) != (seat.user_id, seat.power_id):
        raise PhaseClosed(
            _("Your seat has changed since the page was loaded: your orders were not saved.")
        )
    return now


# -- seats and options --------------------------------------------------------------


def claim_seat(*, token: str, user) -> Seat:
    """Take the seat an invitation link names; a Conflict when the link no longer names a
    seat, the seat is taken or the user already has one in the campaign.

    Locks the campaign first, then the seat, in the same order as every other seat
    change, so two claims never deadlock and one user cannot take two seats at once.
    """
    invited = Seat.objects.filter(invite_token=token).values_list("campaign_id", flat=True).first()
    if invited is None:
        raise Conflict(_("This invitation link is not valid."))
    with transaction.atomic():
        campaign = locked_campaign(invited)
        seat = (
            Seat.objects.select_for_update(of=("self",))
            .select_related("power")
            .get(invite_token=token)
        )
        if seat.user_id == user.pk:
            return seat
        if replacements.is_replacement(seat, user):
            return _take_over(campaign, seat, user, actor=user)
        if seat.user_id is not None:
            raise Conflict(_("This seat has already been taken."))
        if seat.is_gm:  # a watcher who becomes a GM stops watching (campaign/people/gm_team.py)
            Seat.objects.filter(campaign=campaign, user=user, role=Seat.Role.OBSERVER).delete()
        if Seat.objects.filter(campaign=campaign, user=user).exists():
            raise Conflict(_("You already have a seat in this campaign."))
        _refuse_seating_after_reading(campaign, seat)
        seat.user, seat.user_placeholder = user, ""  # an imported name gives way to the user
        _new_holder(seat)
        seat.save(update_fields=["user", "user_placeholder", *NEW_HOLDER_FIELDS])
        if seat.power_id is not None:
            tenures.begin(campaign, seat.power, user)
        log(
            campaign,
            Event.Kind.SEAT,
            Text(
                "%(user)s takes the seat of %(seat)s.",
                user=user.get_username(),
                seat=_seat_name(seat),
            ),
            actor=user,
            power=seat.power,
        )
        away_everywhere.apply_to_seat(campaign, seat)
        campaign.bump_version()
        lifecycle.settle(campaign)
        return seat


def assign_seat(*, seat: Seat, user, actor) -> Seat:
    """The GM seats a user (or empties the seat when user is None)."""
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        seat = Seat.objects.select_for_update(of=("self",)).select_related("power").get(pk=seat.pk)
        if seat.is_gm:
            raise ServiceError(_("The GM seat is not reassigned here."))
        if user is not None and replacements.is_replacement(seat, user):
            return _take_over(campaign, seat, user, actor=actor)
        if user is not None and seat.user_id != user.pk:
            _refuse_seating_after_reading(campaign, seat)
        before = seat.user_id
        seat.user, seat.user_placeholder = user, ""  # an imported name gives way too
        seat.clear_away()
        if seat.user_id != before:
            _new_holder(seat)
        try:
            with transaction.atomic():
                fields = ["user", "user_placeholder", *Seat.AWAY_FIELDS, *NEW_HOLDER_FIELDS]
                seat.save(update_fields=fields)
        except IntegrityError:
            raise ServiceError(
                _("%(user)s already has a seat here.") % {"user": user.get_username()}
            ) from None
        if seat.user_id != before:
            _change_tenure(campaign, seat, user)
        who = user.get_username() if user else Text("nobody")
        log(
            campaign,
            Event.Kind.SEAT,
            Text(
                "GM %(gm)s seats %(user)s as %(seat)s.",
                gm=actor.get_username(),
                user=who,
                seat=_seat_name(seat),
            ),
            actor=actor,
            power=seat.power,
        )
        away_everywhere.apply_to_seat(campaign, seat)
        campaign.bump_version()
        lifecycle.settle(campaign)
        return seat


NEW_HOLDER_FIELDS = ("former_power", "left_at")


def _new_holder(seat: Seat) -> None:
    """A seat changes hands (to save with NEW_HOLDER_FIELDS): a replaced player's
    observer seat no longer reads what they read as their power's player, and the power
    of a seat that gets a new player, or none, is no longer in civil disorder (a new
    player of it by a replacement: campaign/play/replacements.py)."""
    seat.former_power, seat.left_at = None, None
    if seat.power_id is not None and seat.power.in_disorder:
        disorder.restore(seat.power)


def _take_over(campaign: Campaign, seat: Seat, user, *, actor) -> Seat:
    """``user`` takes over the seat of a power in civil disorder (campaign/play/replacements.py),
    in the caller's transaction: refused to a user who plays or runs the campaign."""
    if campaign.seats.filter(user=user).exclude(role=Seat.Role.OBSERVER).exists():
        raise Conflict(_("%(user)s already has a seat here.") % {"user": user.get_username()})
    _refuse_seating_after_reading(campaign, seat)
    replacements.take_over(campaign, seat, user, actor=actor)
    away_everywhere.apply_to_seat(campaign, seat)
    campaign.bump_version()
    lifecycle.settle(campaign)
    return seat


def _change_tenure(campaign: Campaign, seat: Seat, user) -> None:
    """A power's seat the GM gives to ``user`` (None: empties): its player's tenure ends,
    counted as a seat left once the campaign has started, and the new one's begins."""
    if seat.power_id is None:
        return
    left = tenures.end(campaign, seat.power, Tenure.Ended.LEFT)
    if left is not None and campaign.started_at is not None:
        reliability.add([left.user_id], "seats_left")
    if user is not None:
        tenures.begin(campaign, seat.power, user)


def set_options(*, campaign_id: int, options: dict, dice_mode: str, actor) -> None:
    """Change rule options and dice mode; each change is logged."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        rules = campaign.rules
        specs = {spec.key: spec for spec in rules.options}
        unknown = set(options) - set(specs)
        if unknown:
            raise ServiceError(
                _("Unknown option: %(options)s.") % {"options": ", ".join(sorted(unknown))}
            )
        if dice_mode not in Campaign.DiceMode.values:
            raise ServiceError(_("Unknown dice mode."))
        current = campaign.rule_options
        changes = []
        for key, value in options.items():
            if value not in dict(specs[key].choices):
                raise ServiceError(
                    _("“%(value)s” is not a choice for %(option)s.")
                    % {"value": value, "option": specs[key].label}
                )
            if current[key] != value:
                label, choice = Term(specs[key].label), Term(specs[key].choice_label(value))
                changes.append(Text("%(option)s: %(choice)s", option=label, choice=choice))
        if dice_mode != campaign.dice_mode:
            mode = Term(Campaign.DiceMode(dice_mode).label)
            changes.append(Text("dice: %(mode)s", mode=mode))
        campaign.options = {**campaign.options, **options}
        campaign.dice_mode = dice_mode
        campaign.save(update_fields=["options", "dice_mode"])
        for change in changes:
            said = Text("GM %(gm)s sets %(change)s.", gm=actor.get_username(), change=change)
            log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()


def gm_plays(*, campaign_id: int, power_key: str | None, actor) -> Seat:
    """A GM (``actor``) also plays a power (its open player seat goes to the GM's own
    seat), or stops (the power gets a player seat again, with a fresh invitation). One
    GM of a campaign plays a power at a time."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        gm = (
            Seat.objects.select_for_update(of=("self",))
            .select_related("power")
            .filter(campaign=campaign, role=Seat.Role.GM, user_id=getattr(actor, "pk", None))
            .first()
        )
        if gm is None:
            raise ServiceError(_("Only a GM of this campaign plays a power as its GM."))
        if gm.power_id is not None:
            power = gm.power
            _seal_leaving_gm_orders(campaign, power, actor)
            if campaign.phase_id:  # the GM reads every order of it from now on
                Phase.objects.filter(pk=campaign.phase_id).update(gm_stopped_playing=True)
            gm.power = None
            gm.save(update_fields=["power"])
            tenures.end(campaign, power, Tenure.Ended.LEFT)
            Seat.objects.create(campaign=campaign, role=Seat.Role.PLAYER, power=power)
            said = Text("The GM no longer plays %(power)s.", power=power.display_name)
            log(campaign, Event.Kind.SEAT, said, actor=actor)
        if power_key:
            _refuse_a_second_playing_gm(campaign, gm)
            seat = (
                Seat.objects.select_for_update(of=("self",))
                .select_related("power")
                .filter(campaign=campaign, role=Seat.Role.PLAYER, power__key=power_key)
                .first()
            )
            if seat is None:
                raise ServiceError(_("There is no such power's seat to take."))
            if seat.user_id is not None:
                raise ServiceError(
                    _("%(power)s has a player: empty the seat first.")
                    % {"power": seat.power.display_name}
                )
            power = seat.power
            _refuse_taking_a_power_mid_phase(campaign, power)
            seat.delete()
            gm.power = power
            gm.save(update_fields=["power"])
            tenures.begin(campaign, power, actor)
            log(
                campaign,
                Event.Kind.SEAT,
                Text(
                    "The GM also plays %(power)s: the GM sees the other powers' orders for a "
                    "phase only once the GM's own are marked ready, and sealed.",
                    power=power.display_name,
                ),
                actor=actor,
                power=power,
            )
        campaign.bump_version()
        if lifecycle.starts_now(campaign):  # the GM took the last power without a player
            lifecycle.begin(campaign, actor=None)
        return gm


def _seal_leaving_gm_orders(campaign: Campaign, power: Power, actor) -> None:
    """A GM who stops playing reads every order from now on: the orders they saved for
    the open phase are sealed as they stand (sealing.py)."""
    drafts = Order.objects.filter(phase_id=campaign.phase_id, power=power, ready=False)
    if campaign.phase_id and drafts.update(ready=True):
        said = Text(
            "%(power)s's orders for this phase are sealed as the GM left them.",
            power=power.display_name,
        )
        log(campaign, Event.Kind.ORDER, said, actor=actor, power=power)


def _refuse_taking_a_power_mid_phase(campaign: Campaign, power: Power) -> None:
    """A GM may have read the orders other powers gave for the open phase: they cannot
    take a power to order it afterwards (sealing.py)."""
    others = Order.objects.filter(phase_id=campaign.phase_id).exclude(power=power)
    if campaign.phase_id and others.exists():
        raise Conflict(
            _(
                "Other powers have already given orders for this phase, which you can read: "
                "you may take %(power)s once it is resolved, before orders are given for "
                "the next."
            )
            % {"power": power.display_name}
        )


def _refuse_a_second_playing_gm(campaign: Campaign, gm: Seat) -> None:
    """One GM of a campaign plays a power at a time: the whole GM team's reading of the
    open phase's orders is sealed by that power's (sealing.py)."""
    others = Seat.objects.filter(campaign=campaign, role=Seat.Role.GM, power__isnull=False)
    playing = others.exclude(pk=gm.pk).select_related("power").first()
    if playing is not None:
        raise Conflict(
            _(
                "Another GM of this campaign already plays %(power)s: one GM plays a power "
                "at a time."
            )
            % {"power": playing.power.display_name}
        )


def _gms(campaign: Campaign) -> list[Seat]:
    """The campaign's GM seats (a campaign may have several: campaign/people/gm_team.py)."""
    return list(Seat.objects.filter(campaign=campaign, role=Seat.Role.GM))


def _refuse_seating_after_reading(campaign: Campaign, seat: Seat) -> None:
    """Nobody is seated as a power that may still act in the open phase once the GMs, one
    of whom plays or played a power in it, have read the others' orders: the account
    could be a GM's own (sealing.py). Refused, whoever seats whom, until the phase is
    resolved. A GM seat is never refused: a new GM reads what every GM reads (sealed
    while the power a GM plays has not sealed its orders), and orders no power unless
    they take one, which gm_plays refuses once other powers have given orders."""
    if seat.role != Seat.Role.PLAYER or seat.power_id is None or campaign.phase_id is None:
        return
    phase = Phase.objects.get(pk=campaign.phase_id)
    waiting = phase.status == Phase.Status.WAITING
    acts = waiting or campaign.rules.phase(phase.key).takes_orders_from(seat.power.key)
    orders = {order.power_id: order for order in phase.orders.all()}
    if sealing.reseat_refused(_gms(campaign), phase, orders, acts_in_phase=acts):
        raise Conflict(
            _(
                "Nobody can be seated as %(power)s until this phase is resolved: the GM, who "
                "plays or played a power in it, has read the orders the powers gave for it, "
                "and those orders stay sealed. Seat a player once it is resolved."
            )
            % {"power": seat.power.display_name}
        )


def add_observer_seat(*, campaign_id: int, actor) -> Seat:
    """A new observer seat, to hand out by its invitation link."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = Seat.objects.create(campaign=campaign, role=Seat.Role.OBSERVER)
        log(
            campaign,
            Event.Kind.SEAT,
            Text("GM %(gm)s opens an observer seat.", gm=actor.get_username()),
            actor=actor,
        )
        campaign.bump_version()
        return seat


def set_deadline(*, campaign_id: int, phase_id: int, deadline, actor) -> None:
    """Set or clear the open phase's deadline (a paused clock is cleared with it)."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if campaign.phase_id != phase_id:
            raise PhaseClosed(_("This phase is closed: its deadline cannot change."))
        if campaign.phase.status == Phase.Status.WAITING:
            raise Conflict(
                _(
                    "The phase is being resolved (it waits for a decision): its deadline no "
                    "longer applies."
                )
            )
        if deadline is not None and deadline <= timezone.now():
            raise ServiceError(_("A deadline must be in the future."))
        if deadline is not None and campaign.paused_at is not None:
            raise ServiceError(str(PAUSED_CAMPAIGN))
        Phase.objects.filter(pk=phase_id).update(deadline=deadline, paused_remaining=None)
        said = moment_text(deadline) if deadline else Text("no deadline")
        log(
            campaign,
            Event.Kind.GM,
            Text("GM %(gm)s sets the deadline: %(when)s.", gm=actor.get_username(), when=said),
            actor=actor,
        )
        campaign.bump_version()
