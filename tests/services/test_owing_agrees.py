"""Owing means having something to decide, and is the same everywhere: for every phase
of every ruleset, whether a power owes orders (PhaseSpec.owes, which the resolver's
"who is awaited", the GM's readiness table and the home page read through Phase.owing)
agrees with its order form having a choice that the phase waits for (the form's
``owes``, which the page's "nothing to order" reads). Checked over every corpus
situation, and over every phase of a turn of each demo campaign, where also no phase
stays open without a power or the GM owing something."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from campaign.core import readiness
from campaign.models import Campaign, Phase, Seat
from campaign.play import services
from rules import corpus
from rules.corpus import merged
from rules.engine import ruleset_for
from rules.virgin_queen import services as vq_services
from tests.corpus.logs import adapters
from tests.services.test_scheduling import run_worker

# What a ruleset's forms are given as its World, from the pure World: Virgin Queen's
# forms read the procedure under way beside it (none in a corpus situation).
AS_LOADED = {"virgin_queen": lambda world: vq_services.Loaded(world, world, {}, {})}


def situation(ruleset: str, case: dict):
    """The World a corpus case starts from (its adapter's board and ``given``), as the
    ruleset's forms and owes read it."""
    board, given = corpus.board(ruleset), dict(case.get("given", {}))
    if "links" in board:
        given["links"] = board["links"] + given.get("links", [])
    world = adapters()[ruleset].build(merged(board, given))
    return AS_LOADED.get(ruleset, lambda world: world)(world)


SITUATIONS = [
    pytest.param(ruleset, case, id=case["id"])
    for ruleset in adapters()
    for found in corpus.cases(ruleset).values()
    for case in found
]


def disagreements(rules, spec, world, powers) -> list[tuple[str, bool, bool]]:
    """(power, owes, form owes) for each power the phase takes orders from where the
    ruleset's owes and the order form's disagree."""
    form_class = rules.hooks.phase(spec.key).order_form
    found = []
    for key in powers:
        if not spec.takes_orders_from(key):
            continue
        owes = spec.owes_orders(world, key)
        form_owes = form_class(world=world, power_key=key).owes
        if owes != form_owes:
            found.append((key, owes, form_owes))
    return found


@pytest.mark.parametrize(("ruleset", "case"), SITUATIONS)
def test_owing_agrees_with_the_order_form_in_every_corpus_situation(ruleset, case):
    rules = ruleset_for(ruleset)
    world = situation(ruleset, case)
    powers = {spec.orders_from for spec in rules.phases} - {"all", "none"}
    powers |= set(getattr(world, "powers", None) or getattr(world, "nations", None) or ())
    for spec in rules.phases:
        if spec.takes_orders:
            assert disagreements(rules, spec, world, powers) == [], spec.key


# -- the demo campaigns, phase by phase ---------------------------------------------------

MOST_PHASES = 30  # a campaign's phases walked at most, to meet every kind that takes orders


@pytest.fixture
def demo(django_capture_on_commit_callbacks) -> list[Campaign]:
    """The demo campaigns, as `manage.py demo` leaves them once the worker has run."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    run_worker(django_capture_on_commit_callbacks)
    campaigns = list(Campaign.objects.order_by("pk"))
    assert {c.ruleset for c in campaigns} >= {"empires_in_arms", "pax_baltica", "virgin_queen"}
    return campaigns


@pytest.mark.long
@pytest.mark.django_db
def test_no_phase_of_a_demo_campaign_stays_open_without_someone_owing_something(
    demo, django_capture_on_commit_callbacks
):
    """The campaigns resolve themselves: what stays open waits for a power's orders or
    decision, or is a step only the GM takes, for a turn and more of each."""
    for campaign in demo:
        for _ in range(len(campaign.rules.turn_phases(campaign.turn, campaign.setup)) + 1):
            check_open_phase(campaign)
            move_on(campaign, django_capture_on_commit_callbacks)


@pytest.mark.django_db
def test_every_phase_of_a_turn_of_each_demo_campaign_owes_what_its_forms_ask(
    demo, django_capture_on_commit_callbacks
):
    """With automatic resolution off, every phase stays open for the GM and is checked,
    until each kind of phase that takes orders has been (the economic phase comes in
    March): none is passed over because nobody owes anything in it."""
    for campaign in demo:
        Campaign.objects.filter(pk=campaign.pk).update(auto_resolve=False)
        kinds = {spec.key for spec in campaign.rules.phases if spec.takes_orders}
        seen: set[str] = set()
        for _ in range(MOST_PHASES):
            seen.add(check_open_phase(campaign))
            if kinds <= seen:
                break
            move_on(campaign, django_capture_on_commit_callbacks)
        assert kinds <= seen, campaign.name


def check_open_phase(campaign: Campaign) -> str:
    """The open phase's owing agrees with each power's form, and the phase waits for a
    power that owes and is not ready, a decision, or the GM; answers the phase's key."""
    campaign.refresh_from_db()
    phase = campaign.phase
    rules, spec = campaign.rules, campaign.rules.phase(phase.key)
    world = rules.load_world(campaign)
    keys = list(campaign.powers.values_list("key", flat=True))
    where = f"{campaign.name}: {phase}"
    if phase.status == Phase.Status.OPEN and spec.takes_orders:
        assert disagreements(rules, spec, world, keys) == [], where
        owing = {key for key in keys if phase.waits_for(spec, key)}
        assert owing == {key for key in keys if spec.owes_orders(world, key)}, where
        waiting = [p for p in readiness.owing_powers(campaign, phase) if not p.ready]
        assert waiting or not readiness.resolves_itself(campaign), (
            f"{where} stays open with nobody owing anything"
        )
    elif phase.status == Phase.Status.WAITING:
        assert rules.hooks.decisions.default(world) is not None, where
    return phase.key


def move_on(campaign: Campaign, capture) -> None:
    """The GM resolves the open phase, or gives the default answer to the decision under
    way for the power it waits for; the worker then runs what that leaves due."""
    campaign.refresh_from_db()
    phase = campaign.phase
    gm = campaign.seats.get(role=Seat.Role.GM).user
    with capture(execute=True):
        if phase.status == Phase.Status.WAITING:
            power_key, answer = campaign.rules.hooks.decisions.default(
                campaign.rules.load_world(campaign)
            )
            seat = campaign.seats.select_related("power").get(power__key=power_key)
            services.decide(seat=seat, phase_id=phase.pk, answer=answer, actor=seat.user)
        else:
            services.resolve_open_phase(
                campaign_id=campaign.pk, expected_phase_id=phase.pk, actor=gm
            )
    run_worker(capture)
