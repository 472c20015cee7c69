"""Orders as plain text (campaign/notify/order_text.py), for every phase of every ruleset that
takes orders: the text a mail shows reads back into what the page would post, in English,
Greek and Russian; a line changes its own field only; what cannot be read is refused with
why; and no text makes the reader fail or lose a line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django import forms
from django.http import QueryDict
from django.utils import translation
from django.utils.translation import pgettext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.models import Area, Campaign, Seat
from campaign.notify.order_text import answered, field_keys, read, written
from campaign.play import services
from campaign.views.context import load_state
from rules.empires_in_arms.models import GuerrillaStack, Revolt
from rules.engine import ruleset_for
from rules.pax_baltica.models import PbSide
from tests.factories import make_pb_campaign, make_vq_campaign
from tests.reliability.form_crawl import parse_page
from tests.services.test_eia_phase_services import quarter_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.sampled(every=3)]

LANGUAGES = ("en", "el", "ru")
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines() cuts


# -- the phases and their drafts ----------------------------------------------------------


def nth(form, prefix: str, index: int = 0) -> str:
    """The name of the form's ``index``-th field whose name starts with ``prefix``."""
    return [name for name in form.fields if name.startswith(prefix)][index]


def block_field(prefix: str, name: str) -> Callable:
    """The field of the block of that name, in a Pax Baltica form."""
    return lambda form: (
        prefix + str(next(block.id for block in form.world.blocks.values() if block.name == name))
    )


def spanish_guerrillas(campaign: Campaign) -> None:
    """Two Spanish stacks of 2 factors in Old Castile: two fields with one label."""
    castile = Area.objects.get(campaign=campaign, key="old-castile")
    spain = campaign.powers.get(key="spain")
    GuerrillaStack.objects.bulk_create(
        [
            GuerrillaStack(
                campaign=campaign,
                area=castile,
                origin=castile,
                nationality=spain,
                factors=2,
                revolt=False,
            )
            for _ in range(2)
        ]
    )


def revolt_succeeding(campaign: Campaign) -> None:
    """EIA-8: the Palatinate revolt succeeds in this conquest step, so Britain owes."""
    Revolt.objects.filter(campaign=campaign, area__key="palatinate").update(
        capital_held_months=1, number=6
    )


def per_target_campaign() -> Campaign:
    return quarter_campaign(options={"attempt_limit": "per_target"})


def pb_campaign() -> Campaign:
    return make_pb_campaign(options={"forage_further_losses": "owner_order"})


@dataclass(frozen=True)
class Case:
    """A phase, the power whose form is read, and the draft it saved (as posted)."""

    make: Callable[[], Campaign]
    phase: str
    power: str
    draft: Callable[[forms.Form], dict]
    prepare: Callable[[Campaign], None] | None = None  # what to set up once there


CASES = {
    "eia-peace": Case(
        quarter_campaign, "peace", "great_britain", lambda f: {"lapse": ["palatinate"]}
    ),
    "eia-revolt": Case(
        quarter_campaign, "revolt", "great_britain", lambda f: {"targets": ["andalusia", "minor-0"]}
    ),
    "eia-revolt-per-target": Case(
        per_target_campaign,
        "revolt",
        "great_britain",
        lambda f: {"targets": ["minor-0"], "repeat": "2"},
    ),
    "eia-land-operations": Case(
        quarter_campaign, "land", "france", lambda f: {"operations": ["palatinate"]}
    ),
    "eia-land-moves": Case(
        quarter_campaign,
        "land",
        "spain",
        lambda f: {nth(f, "move_", 1): "andalusia"},
        spanish_guerrillas,
    ),
    "eia-conquest": Case(
        quarter_campaign,
        "conquest",
        "great_britain",
        lambda f: {"choice_palatinate": "client"},
        revolt_succeeding,
    ),
    "eia-economic": Case(
        quarter_campaign, "economic", "great_britain", lambda f: {"aid_palatinate": "3"}
    ),
    "pb-recruitment": Case(
        pb_campaign,
        "recruitment",
        "sweden",
        lambda f: {
            block_field("reinforce_", "Wachtmeister")(f): "1",
            "draws": "1",
            "steps_each": "2",
            "place_1": "livland",
        },
    ),
    "pb-actions-siege": Case(
        pb_campaign,
        "actions",
        "russia",
        lambda f: {block_field("act_", "Menshikov")(f): "1", "siege_narva": "on"},
    ),
    "pb-actions-fleet": Case(
        pb_campaign,
        "actions",
        "sweden",
        lambda f: {block_field("move_", "Wachtmeister")(f): "southern_baltic"},
    ),
    "pb-forage": Case(
        pb_campaign,
        "forage",
        "russia",
        lambda f: {
            block_field("loss_", "Woronjetski")(f): "1",
            block_field("loss_", "Pyotr I")(f): "2",
        },
    ),
    "vq-ottoman": Case(
        make_vq_campaign,
        "impulse_ottoman",
        "ottoman",
        lambda f: {"action": "other", "note": "Raid on Vienna: 2 CP = a siege"},
    ),
    "vq-spain": Case(
        make_vq_campaign,
        "impulse_spain",
        "spain",
        lambda f: {"action": "conversion", "zones": ["france", "netherlands"], "attempts": "4"},
    ),
    "vq-england": Case(
        make_vq_campaign, "impulse_england", "england", lambda f: {"action": "pass"}
    ),
    "vq-france": Case(
        make_vq_campaign,
        "impulse_france",
        "france",
        lambda f: {
            "action": "conversion",
            "zones": ["france"],
            "attempts": "2",
            "event": "Council of Troubles",
        },
    ),
    "vq-hre": Case(
        make_vq_campaign,
        "impulse_hre",
        "hre",
        lambda f: {"action": "conversion", "zones": ["germany"], "attempts": "1"},
    ),
    "vq-protestant": Case(
        make_vq_campaign,
        "impulse_protestant",
        "protestant",
        lambda f: {"action": "revolt", "target": "amsterdam", "cp": "3"},
    ),
}


def page_form(seat_id: int, data=None) -> forms.Form:
    """The seat's order form as the page builds it (bound to ``data``, if given)."""
    seat = Seat.objects.select_related("campaign", "power").get(pk=seat_id)
    return load_state(seat).order_form(data)


def valid_payload(seat_id: int, data) -> dict:
    bound = page_form(seat_id, data)
    assert bound.is_valid(), bound.errors
    return bound.payload()


@dataclass(frozen=True)
class Orders:
    """A power's seat in a campaign at a phase, with its draft saved."""

    seat_id: int
    draft: dict  # the payload saved
    blank: forms.Form  # its form before the draft was saved

    def form(self, data=None) -> forms.Form:
        return page_form(self.seat_id, data)

    def payload(self, data) -> dict:
        return valid_payload(self.seat_id, data)


def reach(campaign: Campaign, key: str) -> None:
    for _ in range(20):
        campaign.refresh_from_db()
        if campaign.phase.key == key:
            return
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
        )
    raise AssertionError(f"{key} not reached")


def orders_at(case: Case) -> Orders:
    """The case's campaign at its phase, the power's draft saved."""
    campaign = case.make()
    reach(campaign, case.phase)
    if case.prepare:
        case.prepare(campaign)
        campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    seat = campaign.seats.select_related("power").get(power__key=case.power)
    blank = page_form(seat.pk)
    assert blank.owes, "the power owes orders"
    draft = valid_payload(seat.pk, case.draft(blank))
    services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload=draft, ready=False, actor=None
    )
    return Orders(seat.pk, draft, blank)


RULESETS = {"eia": "empires_in_arms", "pb": "pax_baltica", "vq": "virgin_queen"}


def test_every_phase_with_an_order_form_has_its_case():
    ordered = {
        (ruleset, key)
        for ruleset in RULESETS.values()
        for key, hooks in ruleset_for(ruleset).hooks.phases.items()
        if hooks.order_form
    }
    assert {(RULESETS[name.split("-")[0]], case.phase) for name, case in CASES.items()} == ordered


@pytest.fixture(params=list(CASES.values()), ids=list(CASES))
def orders(request) -> Orders:
    return orders_at(request.param)


# -- what a browser posts -----------------------------------------------------------------


def browser_post(form) -> QueryDict:
    """What the page's form, untouched, posts: read from its HTML."""
    page = parse_page(f'<form method="post">{form}</form>', "/")
    posted = QueryDict(mutable=True)
    for control in page.forms[0].fields:
        for value in control.default:
            posted.appendlist(control.name, value)
    return posted


def as_lists(data) -> dict[str, list[str]]:
    """Posted data as name -> values, without the names posting nothing."""
    lists = {name: data.getlist(name) if hasattr(data, "getlist") else data[name] for name in data}
    lists = {name: value if isinstance(value, list) else [value] for name, value in lists.items()}
    return {name: values for name, values in lists.items() if values}


def ready_word() -> str:
    return pgettext("orders", "ready").upper()


# -- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_written_orders_read_back_as_the_page_would_post_them(orders, language):
    with translation.override(language):
        form = orders.form()
        text = written(form)
        reading = read(form, f"{text}\n{ready_word()}\n")
        assert [line.refusal for line in reading.lines if line.refusal] == []
        assert reading.ready
        assert as_lists(reading.data) == as_lists(browser_post(form))
        assert orders.payload(reading.data) == orders.payload(browser_post(form)) == orders.draft


def test_the_untouched_form_reads_back_as_the_page_would_post_it(orders):
    reading = read(orders.blank, written(orders.blank))
    assert not reading.ready
    assert as_lists(reading.data) == as_lists(browser_post(orders.blank))


def test_the_text_has_a_line_per_field_an_explanation_and_the_ready_line(orders):
    form = orders.form()
    lines = written(form).splitlines()
    keys = field_keys(form)
    orders_given = [line for line in lines if not line.startswith("#")]
    assert len(orders_given) == len(keys)
    pairs = zip(orders_given, keys.values(), strict=True)
    assert all(line.startswith(f"{key}: ") for line, key in pairs)
    for name, f in form.fields.items():
        if getattr(f, "choices", None) or getattr(f, "max_value", None) is not None:
            assert any(line.startswith(f"# {keys[name]}: ") for line in lines), name
    assert "READY" in lines[-1] and lines[-1].startswith("# ")


def other_value(form, name: str) -> tuple[str, str | list[str] | None]:
    """Another value for the field than its current one: as written, and as posted (None:
    nothing posted)."""
    f, posted = form.fields[name], read(form, "").data.get(name)
    if isinstance(f, forms.BooleanField):
        return ("no", None) if posted else ("yes", "on")
    if isinstance(f, forms.MultipleChoiceField):
        value, label = f.choices[0]
        return ("", []) if posted else (str(label), [str(value)])
    if isinstance(f, forms.ChoiceField):
        value, label = next((v, label) for v, label in f.choices if str(v) != posted)
        return str(label), str(value)
    if isinstance(f, forms.IntegerField):
        value = f.min_value if posted != str(f.min_value) else f.max_value
        return str(value), str(value)
    return "something else: entirely", "something else: entirely"


def test_changing_one_line_changes_that_field_only(orders):
    form = orders.form()
    text, keys = written(form), field_keys(form)
    before = read(form, text).data
    for name, key in keys.items():
        if isinstance(form.fields[name], forms.ChoiceField) and len(form.fields[name].choices) < 2:
            continue
        shown, posted = other_value(form, name)
        edited = [
            f"{key}: {shown}" if line.startswith(f"{key}: ") else line for line in text.splitlines()
        ]
        reading = read(form, "\n".join(edited))
        expected = {k: v for k, v in before.items() if k != name}
        if posted is not None:
            expected[name] = posted
        assert reading.data == expected, name
        assert [line.field for line in reading.lines] == list(keys), name


# -- refusals -----------------------------------------------------------------------------


def test_lines_that_cannot_be_read_are_refused_with_why(orders):
    form = orders.form()
    keys = field_keys(form)
    first_name, first_key = next(iter(keys.items()))
    first_line = next(line for line in written(form).splitlines() if line.startswith(first_key))
    reply = ["Nonsense order: 3", "please move my armies", first_line, first_line, "READY"]
    reading = read(form, "\n".join(reply))
    refusals = [line.refusal for line in reading.lines]
    assert [line.text for line in reading.lines] == reply
    assert "Nonsense order" in refusals[0] and first_key.split(" (")[0] in refusals[0]
    assert refusals[1] and refusals[2] == "" and refusals[3] and refusals[4] == ""
    assert [line.field for line in reading.lines] == [None, None, first_name, None, None]
    assert reading.data == read(form, "").data and reading.ready


CHOOSING = [key for key in CASES if key not in ("eia-economic", "pb-actions-siege", "pb-forage")]


@pytest.mark.parametrize("orders", [CASES[key] for key in CHOOSING], ids=CHOOSING, indirect=True)
def test_an_unknown_choice_is_refused_naming_the_choices(orders):
    """(The forms of the other cases have no choice field.)"""
    form = orders.form()
    keys = field_keys(form)
    name = next(name for name, f in form.fields.items() if isinstance(f, forms.ChoiceField))
    reading = read(form, f"{keys[name]}: Atlantis")
    (line,) = reading.lines
    assert line.field is None and "Atlantis" in line.refusal
    label = str(form.fields[name].choices[-1][1])
    assert label.split(" (")[0] in line.refusal
    assert reading.data == read(form, "").data


def test_a_boolean_takes_yes_or_no_in_any_of_the_languages():
    orders = orders_at(CASES["pb-actions-siege"])
    with translation.override("el"):
        form = orders.form()
        key = field_keys(form)["siege_narva"]
        assert read(form, f"{key}: ΟΧΙ").data.get("siege_narva") is None
        assert read(form, f"{key} = да").data["siege_narva"] == "on"
        (line,) = read(form, f"{key}: perhaps").lines
        assert line.field is None and "ναι" in line.refusal


def test_keys_and_choices_are_matched_loosely():
    """Any case, spacing, "=" for ":", the label's trailing (…) left out, a choice by its
    value, several choices separated by commas."""
    orders = orders_at(CASES["eia-revolt"])
    form = orders.form()
    reading = read(form, "  REVOLT   attempts =  minor-0, Andalusia |minor 002  ")
    assert reading.data["targets"] == ["minor-0", "andalusia", "minor-2"]
    assert [line.refusal for line in reading.lines] == [""]
    orders = orders_at(CASES["eia-economic"])
    form = orders.form()
    assert "Aid to Palatinate (revolt number 4" in written(form)
    reading = read(form, "aid to PALATINATE: 5")
    assert reading.data == {"aid_palatinate": "5"} and reading.lines[0].field == "aid_palatinate"


def test_two_fields_with_one_label_are_told_apart_by_their_rank():
    orders = orders_at(CASES["eia-land-moves"])
    form = orders.form()
    first, second = nth(form, "move_", 0), nth(form, "move_", 1)
    keys = field_keys(form)
    assert keys[first] == "2 guerrilla factors in Old Castile [1]"
    assert keys[second] == "2 guerrilla factors in Old Castile [2]"
    assert read(form, "").data[second] == "andalusia"  # the draft
    reading = read(form, f"{keys[first]}: Andalusia\n{keys[second]}: Stay in Old Castile")
    assert (reading.data[first], reading.data[second]) == ("andalusia", "")
    (line,) = read(form, "2 guerrilla factors in Old Castile: Andalusia").lines
    assert line.field is None and keys[first] in line.refusal


def test_the_form_errors_go_to_the_lines_that_caused_them():
    orders = orders_at(CASES["pb-actions-siege"])
    PbSide.objects.filter(campaign__seats__pk=orders.seat_id, key="coalition").update(actions=1)
    Seat.objects.get(pk=orders.seat_id).campaign.bump_version()
    form = orders.form()
    keys = field_keys(form)
    act, siege = nth(form, "act_"), "siege_narva"
    reading = read(form, f"{keys[act]}: 5\nnonsense\n{keys[siege]}: yes\nREADY")
    bound = orders.form(reading.data)
    assert not bound.is_valid()
    lines = answered(reading, bound)
    assert lines[0].refusal == " ".join(bound.errors[act]) != ""
    assert lines[1].refusal == reading.lines[1].refusal != ""
    assert lines[2:] == reading.lines[2:]
    reading = read(form, f"{keys[act]}: 1\n{keys[siege]}: yes")
    bound = orders.form(reading.data)
    assert not bound.is_valid() and bound.non_field_errors()  # 2 actions, 1 left
    assert answered(reading, bound) == reading.lines


# -- any text -----------------------------------------------------------------------------


@pytest.fixture
def recruitment() -> Orders:
    return orders_at(CASES["pb-recruitment"])


ANY_LINE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=LINE_BREAKS))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(data=st.data())
def test_any_text_is_read_line_by_line_without_failing(recruitment, data):
    """Whatever the lines, each that is not blank or a comment is read once, in order,
    and is READY, sets a field or is refused."""
    form = recruitment.form()
    keyed = st.builds(
        "{}{}{}".format,
        st.sampled_from(list(field_keys(form).values())),
        st.sampled_from([":", " = ", ": "]),
        ANY_LINE,
    )
    known = st.sampled_from(written(form).splitlines())
    lines = data.draw(st.lists(st.one_of(ANY_LINE, known, keyed), max_size=12))
    reading = read(form, "\n".join(lines))
    said = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert [line.text for line in reading.lines] == said
    assert all(line.field or line.refusal or reading.ready for line in reading.lines)
