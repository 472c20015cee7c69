"""Empires in Arms (revolts and guerrillas) as data: the month's phases and the options."""

from __future__ import annotations

import calendar

from rules.engine import OptionSpec, PhaseSpec, Ruleset

PACKAGE = "rules.empires_in_arms"

PHASES = (
    PhaseSpec(
        key="peace",
        name="Political phase · peace step",
        rules=("EIA-7",),
        does=(
            "Sponsors may let their revolts lapse (each lapse counts as a revolt let down). "
            "Revolts with no guerrillas for three months in a row end."
        ),
        order_form=f"{PACKAGE}.forms.PeaceOrderForm",
        service=f"{PACKAGE}.services.resolve_peace",
    ),
    PhaseSpec(
        key="revolt",
        name="Political phase · revolt step",
        rules=("EIA-1", "EIA-2"),
        does=(
            "Each power makes up to three revolt attempts (1 PP each, success on a modified 6); "
            "each revolt that breaks out gets its revolt number (2 to 5)."
        ),
        order_form=f"{PACKAGE}.forms.RevoltOrderForm",
        service=f"{PACKAGE}.services.resolve_revolt_step",
    ),
    PhaseSpec(
        key="land",
        name="Land phase · guerrilla steps",
        rules=("EIA-9", "EIA-3", "EIA-10", "EIA-4", "EIA-11", "EIA-12"),
        does=(
            "Each power in turn: guerrilla moves, revolt guerrillas for its revolts, Spanish "
            "guerrillas (Spain), anti-guerrilla operations, depot attacks, Spanish removal."
        ),
        order_form=f"{PACKAGE}.forms.LandOrderForm",
        service=f"{PACKAGE}.services.resolve_land",
    ),
    PhaseSpec(
        key="conquest",
        name="Land phase · conquest step",
        rules=("EIA-8", "EIA-7"),
        does=(
            "Revolts whose guerrillas held the capital for a month with a revolt number of 6 "
            "or more succeed; months without guerrillas are counted."
        ),
        order_form=f"{PACKAGE}.forms.ConquestOrderForm",
        service=f"{PACKAGE}.services.resolve_conquest",
    ),
    PhaseSpec(
        key="economic",
        name="Economic phase · expenditure",
        rules=("EIA-5",),
        does="Sponsors may aid their revolts with $1 to $6 each (roll ≤ amount: +1).",
        order_form=f"{PACKAGE}.forms.EconomicOrderForm",
        service=f"{PACKAGE}.services.resolve_economic",
    ),
)

OPTIONS = (
    OptionSpec(
        "revolt_guerrillas_when",
        "When revolt guerrillas appear",
        (
            ("guerrilla_step", "In the sponsor's guerrilla step (rules 4.3.3.1 and 7.6.1)"),
            ("political_end", "At the end of the political phase (the GM's summary)"),
        ),
        decision="1, 14",
    ),
    OptionSpec(
        "bad_roll",
        "Anti-guerrilla bad roll",
        (
            ("modified_1", "A modified 1 or less raises the revolt number (the summary)"),
            ("modified_6", "A modified 6 raises it (rule 4.3.5 as quoted)"),
        ),
        decision="2",
    ),
    OptionSpec(
        "six_extra_reduction",
        "A modified 6 lowers the revolt number by 1 more",
        ((True, "On (the summary)"), (False, "Off")),
        decision="3",
    ),
    OptionSpec(
        "ottoman_bonus",
        "Ottoman anti-guerrilla bonus",
        (
            ("replaces", "Replaces the +1 for two or more corps"),
            ("adds", "Adds to the +1 for two or more corps"),
        ),
        decision="4",
    ),
    OptionSpec(
        "bad_roll_payment",
        "Paying $d6 against a bad-roll rise",
        (
            ("standing_order", "The controller's standing order, set in advance"),
            ("never", "The controller never pays"),
        ),
        decision="5",
    ),
    OptionSpec(
        "six_extra_needs_success",
        "The extra −1 on a modified 6",
        (
            (True, "Only when the operation succeeds"),
            (False, "On any modified 6"),
        ),
        decision="6",
    ),
    OptionSpec(
        "attempt_limit",
        "The three-attempt limit",
        (
            ("per_step", "Per power per revolt step, over all targets"),
            ("per_target", "Per power per target per revolt step"),
        ),
        decision="7",
    ),
    OptionSpec(
        "attempt_pp_minimum",
        "Political points needed for an attempt",
        (
            (0, "None: PP may go negative"),
            (1, "At least 1 PP"),
        ),
        decision="8",
    ),
    OptionSpec(
        "aid_limit",
        "Aid to a revolt",
        (
            ("sponsor_once", "Only the sponsor, once per revolt per economic phase"),
            ("sponsor_and_allies", "The sponsor or its allies, once each per revolt"),
        ),
        decision="9",
    ),
    OptionSpec(
        "operation_lowers",
        "Whose successful operation lowers the revolt number",
        (
            ("any_power", "Any power's"),
            ("controller_only", "Only the controller's"),
        ),
        decision="10",
    ),
    OptionSpec(
        "operation_without_guerrillas",
        "Operation in a revolting area with no guerrillas",
        (
            (True, "Allowed (4.3.4 is an exception to 7.6.2)"),
            (False, "Not allowed: guerrillas must be present"),
        ),
        decision="11",
    ),
    OptionSpec(
        "spanish_revolt_value",
        "Guerrilla value of a Spanish province in revolt",
        (
            ("revolt_number", "The revolt number"),
            ("printed", "The printed guerrilla value"),
        ),
        decision="12",
    ),
    OptionSpec(
        "depot_garrison_threshold",
        "“A depot garrison with 10 factors”",
        (
            ("at_least", "10 or more factors"),
            ("exactly", "Exactly 10 factors"),
        ),
        decision="13",
    ),
    OptionSpec(
        "unaffordable_payment",
        "A controller who cannot cover the $d6",
        (
            ("rises", "Does not pay; the revolt number rises"),
            ("pays_all", "Pays its whole treasury; the revolt number stays"),
        ),
        decision="15",
    ),
    OptionSpec(
        "besieged_guerrillas",
        "Besieged guerrilla factors on a successful operation",
        (
            ("survive", "Survive, and count toward the 5 × manpower cap"),
            ("eliminated", "Are eliminated with the others"),
        ),
        decision="16",
    ),
    OptionSpec(
        "france_slot",
        "France's announced slot in the land phase",
        tuple((n, f"{n}") for n in range(1, 8)),
        help="France announces its slot; the others go Russia, Turkey, Austria, Prussia, "
        "Great Britain, Spain.",
    ),
)

PROCEDURES = {
    "EIA-1": ("Revolt attempt", "d6 + NM + PSM − let-downs; modified 6 or more: revolt."),
    "EIA-2": ("Revolt strength", "d6 ± both sides' NM and PSM, −1 controller corps; 2..5."),
    "EIA-3": ("Revolt guerrillas", "One factor per point the d6 is under the revolt number."),
    "EIA-4": ("Anti-guerrilla operation", "d6 (+1 two corps) higher than the guerrilla value."),
    "EIA-5": ("Aid to a revolt", "Spend $1–6; d6 ≤ amount: revolt number +1."),
    "EIA-6": ("What changes a revolt number", "Only EIA-4 and EIA-5."),
    "EIA-7": ("Ending a revolt", "Allies, lapse, cession, neutral minor, number ≤ 1, 3 months."),
    "EIA-8": ("Successful revolt", "Capital held a month and revolt number 6 or more."),
    "EIA-9": ("Revolt guerrillas' limits", "Never leave the area of origin; one area a step."),
    "EIA-10": ("Spanish guerrillas", "Field-combat loss, and a d6 per occupied province."),
    "EIA-11": ("Guerrilla depot attack", "More than 6 factors; modified 5–6 destroys depots."),
    "EIA-12": ("Spanish guerrilla removal", "No enemy in Spain: removed, militia per 3."),
}

DEFAULT_POLITICAL_MONTHS = (1, 4, 7, 10)
ECONOMIC_MONTHS = (3, 6, 9, 12)


def month_of(turn: int, setup: dict) -> tuple[int, int]:
    """(year, month) of a turn; turn 1 is the scenario's start month."""
    start = int(setup.get("start_year", 1805)) * 12 + int(setup.get("start_month", 1)) - 1
    index = start + turn - 1
    return index // 12, index % 12 + 1


def sequence(turn: int, setup: dict) -> list[str]:
    """The phases of one month, in order."""
    _, month = month_of(turn, setup)
    keys = []
    if month in setup.get("political_months", DEFAULT_POLITICAL_MONTHS):
        keys += ["peace", "revolt"]
    keys += ["land", "conquest"]
    if month in ECONOMIC_MONTHS:
        keys.append("economic")
    return keys


def turn_label(turn: int, setup: dict) -> str:
    year, month = month_of(turn, setup)
    return f"{calendar.month_name[month]} {year}"


RULESET = Ruleset(
    key="empires_in_arms",
    name="Empires in Arms — revolts and guerrillas",
    phases=PHASES,
    options=OPTIONS,
    sequence=sequence,
    turn_label=turn_label,
    procedures=PROCEDURES,
)
