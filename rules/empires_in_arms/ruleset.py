"""Empires in Arms (revolts and guerrillas) as data: the month's phases and the options."""

from __future__ import annotations

from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy

from rules.empires_in_arms import gm_orders, legal
from rules.engine import GmOrders, OptionSpec, PhaseSpec, Ruleset
from rules.gm_orders import BATTLE, MOVE
from rules.platform import Term
from rules.text import Text

PHASES = (
    PhaseSpec(
        key="peace",
        name=gettext_lazy("Political phase · peace step"),
        rules=("EIA-7",),
        does=gettext_lazy(
            "Sponsors may let their revolts lapse (each lapse counts as a revolt let down)."
        ),
        owes=legal.sponsors_a_revolt,
    ),
    PhaseSpec(
        key="revolt",
        name=gettext_lazy("Political phase · revolt step"),
        rules=("EIA-1", "EIA-2", "EIA-7"),
        does=gettext_lazy(
            "Each power makes up to three revolt attempts (1 PP each, success on a modified 6); "
            "each revolt that breaks out gets its revolt number (2 to 5). Then revolts with no "
            "guerrillas for three months in a row end."
        ),
        owes=legal.can_incite,
    ),
    PhaseSpec(
        key="land",
        name=gettext_lazy("Land phase · guerrilla steps"),
        rules=("EIA-9", "EIA-3", "EIA-10", "EIA-4", "EIA-11", "EIA-12", "EIA-7"),
        does=gettext_lazy(
            "Revolts with no guerrillas for three months end first. Then each power in turn: "
            "guerrilla moves, revolt guerrillas for its revolts, Spanish guerrillas (Spain), "
            "anti-guerrilla operations, depot attacks, Spanish removal."
        ),
        owes=legal.has_land_orders,
    ),
    PhaseSpec(
        key="conquest",
        name=gettext_lazy("Land phase · conquest step"),
        rules=("EIA-8", "EIA-7"),
        does=gettext_lazy(
            "Revolts whose guerrillas held the capital for a month with a revolt number of 6 "
            "or more succeed; months without guerrillas are counted."
        ),
        owes=legal.has_conquest_choice,
    ),
    PhaseSpec(
        key="economic",
        name=gettext_lazy("Economic phase · expenditure"),
        rules=("EIA-5",),
        does=gettext_lazy("Sponsors may aid their revolts with $1 to $6 each (roll ≤ amount: +1)."),
        owes=legal.can_aid,
    ),
)

OPTIONS = (
    OptionSpec(
        "revolt_guerrillas_when",
        gettext_lazy("When revolt guerrillas appear"),
        (
            (
                "guerrilla_step",
                gettext_lazy("In the sponsor's guerrilla step (rules 4.3.3.1 and 7.6.1)"),
            ),
            ("political_end", gettext_lazy("At the end of the political phase (the GM's summary)")),
        ),
        decision="1, 14",
    ),
    OptionSpec(
        "bad_roll",
        gettext_lazy("Anti-guerrilla bad roll"),
        (
            (
                "modified_1",
                gettext_lazy("A modified 1 or less raises the revolt number (the summary)"),
            ),
            ("modified_6", gettext_lazy("A modified 6 raises it (rule 4.3.5 as quoted)")),
        ),
        decision="2",
    ),
    OptionSpec(
        "six_extra_reduction",
        gettext_lazy("A modified 6 lowers the revolt number by 1 more"),
        ((True, gettext_lazy("On (the summary)")), (False, gettext_lazy("Off"))),
        decision="3",
    ),
    OptionSpec(
        "ottoman_bonus",
        gettext_lazy("Ottoman anti-guerrilla bonus"),
        (
            ("replaces", gettext_lazy("Replaces the +1 for two or more corps")),
            ("adds", gettext_lazy("Adds to the +1 for two or more corps")),
        ),
        decision="4",
    ),
    OptionSpec(
        "bad_roll_payment",
        gettext_lazy("Paying $d6 against a bad-roll rise"),
        (
            ("standing_order", gettext_lazy("The controller's standing order, set in advance")),
            ("never", gettext_lazy("The controller never pays")),
        ),
        decision="5",
    ),
    OptionSpec(
        "six_extra_needs_success",
        gettext_lazy("The extra −1 on a modified 6"),
        (
            (True, gettext_lazy("Only when the operation succeeds")),
            (False, gettext_lazy("On any modified 6")),
        ),
        decision="6",
    ),
    OptionSpec(
        "attempt_limit",
        gettext_lazy("The three-attempt limit"),
        (
            ("per_step", gettext_lazy("Per power per revolt step, over all targets")),
            ("per_target", gettext_lazy("Per power per target per revolt step")),
        ),
        decision="7",
    ),
    OptionSpec(
        "attempt_pp_minimum",
        gettext_lazy("Political points needed for an attempt"),
        (
            (0, gettext_lazy("None: PP may go negative")),
            (1, gettext_lazy("At least 1 PP")),
        ),
        decision="8",
    ),
    OptionSpec(
        "aid_limit",
        gettext_lazy("Aid to a revolt"),
        (
            ("sponsor_once", gettext_lazy("Only the sponsor, once per revolt per economic phase")),
            ("sponsor_and_allies", gettext_lazy("The sponsor or its allies, once each per revolt")),
        ),
        decision="9",
    ),
    OptionSpec(
        "operation_lowers",
        gettext_lazy("Whose successful operation lowers the revolt number"),
        (
            ("any_power", gettext_lazy("Any power's")),
            ("controller_only", gettext_lazy("Only the controller's")),
        ),
        decision="10",
    ),
    OptionSpec(
        "operation_without_guerrillas",
        gettext_lazy("Operation in a revolting area with no guerrillas"),
        (
            (True, gettext_lazy("Allowed (4.3.4 is an exception to 7.6.2)")),
            (False, gettext_lazy("Not allowed: guerrillas must be present")),
        ),
        decision="11",
    ),
    OptionSpec(
        "spanish_revolt_value",
        gettext_lazy("Guerrilla value of a Spanish province in revolt"),
        (
            ("revolt_number", gettext_lazy("The revolt number")),
            ("printed", gettext_lazy("The printed guerrilla value")),
        ),
        decision="12",
    ),
    OptionSpec(
        "depot_garrison_threshold",
        gettext_lazy("“A depot garrison with 10 factors”"),
        (
            ("at_least", gettext_lazy("10 or more factors")),
            ("exactly", gettext_lazy("Exactly 10 factors")),
        ),
        decision="13",
    ),
    OptionSpec(
        "unaffordable_payment",
        gettext_lazy("A controller who cannot cover the $d6"),
        (
            ("rises", gettext_lazy("Does not pay; the revolt number rises")),
            ("pays_all", gettext_lazy("Pays its whole treasury; the revolt number stays")),
        ),
        decision="15",
    ),
    OptionSpec(
        "besieged_guerrillas",
        gettext_lazy("Besieged guerrilla factors on a successful operation"),
        (
            ("survive", gettext_lazy("Survive, and count toward the 5 × manpower cap")),
            ("eliminated", gettext_lazy("Are eliminated with the others")),
        ),
        decision="16",
    ),
    OptionSpec(
        "revolt_against_ally",
        gettext_lazy("A revolt attempt in an area held by the sponsor's ally"),
        (
            ("refused", gettext_lazy("Refused: the area is no target, no PP spent")),
            (
                "allowed",
                gettext_lazy(
                    "Allowed: the attempt is made and paid for; a revolt that breaks out ends "
                    "at once, let down"
                ),
            ),
        ),
        decision="17",
        help=gettext_lazy(
            "The rules only say that when sponsor and controller are allies the revolt is "
            "over and counts as let down (EIA-7). By default an ally's area is not offered as "
            "a target. Under the option the attempt is rolled and costs its 1 PP; a revolt "
            "that breaks out gets its number and then ends at once, all its guerrilla factors "
            "removed, with one more let-down in a minor (−1 on the sponsor's later attempts "
            "there)."
        ),
    ),
    OptionSpec(
        "spanish_removal_ceded",
        gettext_lazy("Spanish guerrilla removal and the factors just raised in a ceded province"),
        (
            ("all", gettext_lazy("Every Spanish guerrilla factor is removed, those too")),
            (
                "spares_new_ceded",
                gettext_lazy("The factors raised in this step in a ceded province stay"),
            ),
        ),
        decision="18",
        help=gettext_lazy(
            "Rule 7.6.1 says Spain's roll “is also used when Spanish provinces are ceded”; "
            "7.6.4 removes every Spanish guerrilla factor when no enemy is inside unceded "
            "Spain. By default the removal at the end of Spain's step also takes the factors "
            "its roll raised in a ceded province in the same step. Under the option those stay "
            "on the map (and give no militia); earlier ones are removed as before, and they "
            "are removed in a later step when no enemy is in unceded Spain."
        ),
    ),
    OptionSpec(
        "france_slot",
        gettext_lazy("France's announced slot in the land phase"),
        tuple((n, f"{n}") for n in range(1, 8)),
        help=gettext_lazy(
            "France announces its slot; the others go Russia, Turkey, Austria, Prussia, "
            "Great Britain, Spain."
        ),
    ),
)

PROCEDURES = {
    "EIA-1": (
        gettext_lazy("Revolt attempt"),
        gettext_lazy(
            "(political phase, revolt step). A power may make at most 3 attempts per revolt "
            "step. Each attempt costs 1 PP whatever the result. Target: a minor country or "
            "ceded province controlled by another MP and not already in revolt. Roll d6 + "
            "NM(sponsor, target) + PSM(sponsor) − L, where L is the number of earlier revolts "
            "in that minor that this sponsor let down (minors only). Modified ≥ 6: the revolt "
            "breaks out. *Example (seed):* Great Britain in French-held Palatinate: 4 + 1 (GB "
            "NM) + 1 (GB Dominant) = 6 → success."
        ),
    ),
    "EIA-2": (
        gettext_lazy("Revolt strength"),
        gettext_lazy(
            "(immediately after a success). Roll d6 + NM(sponsor) + PSM(sponsor) − "
            "NM(controller) − PSM(controller) − 1 if the controller has a corps in the "
            "target. The result, clamped to 2..5, is the revolt number. *Examples (seed):* "
            "Palatinate: 5 + 1 + 1 − 0 − 1 (France Dominant) = 6 → 5. Andalusia (Spain "
            "sponsor, former Spanish home province so +3; Spain Neutral 0; France controller, "
            "NM 0 for a ceded province, Dominant −1, French corps present −1): net +1, roll 3 "
            '→ 4. (The seed\'s example writes "−2" for France in the Dominant zone; by the '
            "table Dominant is +1, so the net +1 it states holds only with a French corps in "
            "Andalusia, which is how the case is coded.)"
        ),
    ),
    "EIA-3": (
        gettext_lazy("Revolt guerrillas"),
        gettext_lazy(
            "For each revolt, roll d6: one guerrilla factor is created for every point the "
            "roll is under the revolt number (revolt number 5, roll 2 → 3 factors; roll ≥ "
            "revolt number → none). No enemy force needs to be present. The area's total "
            "guerrilla factors never exceed 5 × its manpower (manpower 0 counts as 1); excess "
            "is not created."
        ),
    ),
    "EIA-4": (
        gettext_lazy("Anti-guerrilla operation"),
        gettext_lazy(
            "(in the operating power's guerrilla step). Allowed for a power (or minor) in "
            "each province / minor where it has at least one eligible corps and there are "
            "guerrillas, or the area is in revolt (an operation in a revolting area is "
            "allowed even with no guerrillas). A corps is eligible if it took part in no land "
            "combat in this power's land combat step and is neither besieged nor besieging. "
            "Roll d6, +1 if 2 or more eligible corps. Ottoman operations inside Ottoman home "
            "provinces and conquered minors instead get +1 per eligible Ottoman or "
            "Ottoman-controlled-minor corps, at most +3. Success if the modified roll is "
            "higher than the area's guerrilla value (the revolt number, or the printed value "
            "of a Spanish province): all unbesieged guerrilla factors in the area are "
            "eliminated, and in a revolting area the revolt number drops by 1. In a revolting "
            "area a modified 6 or more drops it by 1 more; a modified 1 or less raises it by "
            "1 unless the controller pays $(d6) at once. Several powers with corps in one "
            "area may each operate in their own guerrilla step."
        ),
    ),
    "EIA-5": (
        gettext_lazy("Aid to a revolt"),
        gettext_lazy(
            "(economic phase, expenditure). The sponsor spends $1 to $6 on one revolt and "
            "rolls d6: roll ≤ amount spent → revolt number +1. The money is spent either way."
        ),
    ),
    "EIA-6": (
        gettext_lazy("What changes a revolt number"),
        gettext_lazy("EIA-4 (down, or up on the bad roll) and EIA-5 (up). Nothing else."),
    ),
    "EIA-7": (
        gettext_lazy("Ending a revolt"),
        gettext_lazy(
            "All its guerrilla factors are removed when: - the sponsor and the controller "
            "become allies (sponsor let it down: L+1); - the sponsor ends it voluntarily in a "
            "peace step (let down: L+1); - the area is ceded to the sponsor; - the minor "
            "becomes neutral: the guerrilla factors become infantry (Islamic infantry where "
            "appropriate) factors of the minor instead of being removed; - the revolt number "
            "falls to 1 or below; - no guerrilla factors have been in the area for three "
            "months in a row: the revolt ends in the political phase of the fourth month."
        ),
    ),
    "EIA-8": (
        gettext_lazy("Successful revolt"),
        gettext_lazy(
            "(conquest step). Guerrilla factors have occupied the area's capital, unbesieged, "
            "for one month, and the revolt number is 6 or more. - Sponsor not at war with the "
            "controller: a minor becomes an allied minor of the sponsor; a ceded province "
            "reverts to the sponsor's home nation. Every other power's garrison is "
            "repatriated and their corps moved to the nearest friendly territory (the GM "
            "places them). Guerrilla factors become infantry (or Islamic infantry) factors of "
            "the minor, or of the sponsor for a province. - Sponsor at war with the "
            "controller: the area is conquered. A former home province of the sponsor gets "
            "regular infantry factors equal to the guerrilla factors, which are removed. A "
            "minor: the sponsor chooses (a) client state with infantry equal to the guerrilla "
            "factors, or (b) a conquered minor, guerrillas removed."
        ),
    ),
    "EIA-9": (
        gettext_lazy("Revolt guerrillas' limits"),
        gettext_lazy(
            "They never leave their minor or province of origin; they move at most one "
            "adjacent area per land movement step, whatever the terrain; they treat every "
            "force not of the sponsor or its allies as enemy; they may besiege a city with "
            "the sponsor's (or allies') corps, or alone at −2 on the siege table; morale 1.0; "
            "they may be ignored for movement by enemy forces and can only be attacked when "
            "besieged in a city."
        ),
    ),
    "EIA-10": (
        gettext_lazy("Spanish guerrillas"),
        gettext_lazy(
            "(Spain's guerrilla step). - When Spain loses a field combat involving a Spanish "
            "corps inside an unceded Spanish home province, one Spanish guerrilla factor is "
            "created in that area. - For every unceded Spanish province holding an unbesieged "
            "enemy corps and/or garrison, and for every ceded former Spanish province holding "
            "an unbesieged corps or garrison of its controller or of a power at war with "
            "Spain, roll d6: one Spanish guerrilla factor per point the roll is under the "
            "province's printed guerrilla value. Those in ceded provinces move only between "
            "former Spanish provinces and fight powers at war with Spain and the province's "
            "controller. - Spanish guerrillas stay when their province is ceded or conquered."
        ),
    ),
    "EIA-11": (
        gettext_lazy("Guerrilla depot attack"),
        gettext_lazy(
            "In a province with more than 6 guerrilla factors that start no other battle, the "
            "owner may attack the enemy depots (not port-city depots) there: d6 −1 per enemy "
            "corps in the province, −1 if a depot garrison of 10 factors (not in a corps) is "
            "present, +1 if 10 or more guerrilla factors. 5–6 (modified): all those depots "
            "are destroyed; their garrisons retreat into a city up to its capacity or join a "
            "corps in the area, the rest are eliminated. 1–4: no effect."
        ),
    ),
    "EIA-12": (
        gettext_lazy("Spanish guerrilla removal"),
        gettext_lazy(
            "If, in a Spanish guerrilla step, no enemy factor is inside any unceded Spanish "
            "home province, every Spanish guerrilla factor is removed, and Spain receives one "
            "militia factor per 3 removed (rounded down) in its next reinforcement phase."
        ),
    ),
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


def turn_label(turn: int, setup: dict) -> Text:
    """ "January 1805", the month's name in each reader's language."""
    year, month = month_of(turn, setup)
    return Text("%(month)s %(year)s", month=Term(MONTHS[month]), year=year)


RULESET = Ruleset(
    key="empires_in_arms",
    package="rules.empires_in_arms",
    name=gettext_lazy("Empires in Arms — revolts and guerrillas"),
    phases=PHASES,
    options=OPTIONS,
    sequence=sequence,
    turn_label=turn_label,
    year_of=lambda turn, setup: month_of(turn, setup)[0],
    gm_orders=GmOrders(
        kinds=(MOVE, BATTLE),
        module=gm_orders,
        rules=("EIA-4", "EIA-10"),
        help=gettext_lazy(
            "Corps moves and field battles are not automated by the rules Courier follows: "
            "the GM carries them out on the dashboard. A corps that fought this step is not "
            "eligible for anti-guerrilla operations (EIA-4); a field combat Spain loses in "
            "its home provinces raises Spanish guerrillas (EIA-10)."
        ),
    ),
    procedures=PROCEDURES,
    corpus_adapter="corpus_adapter",
    pure_modules=("procedures", "phases", "state", "legal", "edits", "gm_orders"),
    default_orders=gettext_lazy(
        "it does nothing this phase; its standing order on bad rolls stands"
    ),
)
