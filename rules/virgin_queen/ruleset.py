"""Virgin Queen (Catholic conversion, Protestant revolt, espionage) as data.

Impulses are the phases: a turn is rounds of impulses in the impulse order, each
impulse belonging to one power, which gives its action as its order. A conversion or a
revolt may then wait, mid-phase, for a decision of the acting power or of another (hit
allocation, displacement): the phase stays open until the last one is made.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules.engine import GmOrders, OptionSpec, PhaseSpec, Ruleset
from rules.gm_orders import BATTLE, CARD, MOVE
from rules.text import Text
from rules.virgin_queen import gm_orders

# The campaign options: the Decisions of shared/rules/virgin-queen.md that leave a real
# choice, default first. Decisions 3 to 7 are not options: 3 corrects a slip of the seed;
# 4 and 6 follow its words ("Catholic at the start of this step", "adjacent to the
# target"); 5 is the only reading of "do not place excess markers"; and 7 follows step 3,
# which displaces the other Catholic powers' units, so they cannot have been hit or have
# blocked the revolt.
OPTIONS = (
    OptionSpec(
        "unrest_cancel",
        gettext_lazy("Lowering 6s to 5 to cancel unrest (VQ-1 step 3)"),
        (
            ("each_six", gettext_lazy("Each 6 lowered to 5 cancels one unrest marker")),
            ("one_per_action", gettext_lazy("At most one unrest marker is cancelled per action")),
        ),
        decision="1",
        help=gettext_lazy("The automatic 6 of an event may be lowered too."),
    ),
    OptionSpec(
        "displacement",
        gettext_lazy("Displaced units and leaders (VQ-2 steps 3 and 4)"),
        (
            (
                "owner",
                gettext_lazy(
                    "Their owner chooses among the nearest legal spaces; the GM may answer"
                ),
            ),
            ("automatic", gettext_lazy("They go to the first of the nearest legal spaces by name")),
        ),
        decision="2",
        help=gettext_lazy(
            "Nearest legal spaces: fortified spaces the owner controls, or its capital."
        ),
    ),
)

POWERS = (
    ("ottoman", "Ottoman"),
    ("spain", "Spanish"),
    ("england", "English"),
    ("france", "French"),
    ("hre", "Holy Roman Empire's"),
    ("protestant", "Protestant"),
)
IMPULSE_NAMES = {
    "ottoman": gettext_lazy("Ottoman impulse"),
    "spain": gettext_lazy("Spanish impulse"),
    "england": gettext_lazy("English impulse"),
    "france": gettext_lazy("French impulse"),
    "hre": gettext_lazy("Holy Roman Empire's impulse"),
    "protestant": gettext_lazy("Protestant impulse"),
}
DEFAULT_ROUNDS = 2  # impulses of each power per turn, unless the scenario says otherwise


def impulse(power: str, adjective: str) -> PhaseSpec:
    return PhaseSpec(
        key=f"impulse_{power}",
        name=IMPULSE_NAMES.get(power, f"{adjective} impulse"),
        rules=("VQ-1", "VQ-2", "VQ-3"),
        does=gettext_lazy(
            "The power plays its action: a Catholic conversion attempt (a Catholic power), "
            "a Protestant revolt (the Protestant), an espionage action (from turn 3), "
            "another action played at the table, or a pass. A conversion or a revolt waits "
            "for the decisions it needs, from whichever power must make them."
        ),
        orders_from=power,
        kind="impulse",
        kind_name=gettext_lazy("an impulse"),
    )


PHASES = tuple(impulse(power, adjective) for power, adjective in POWERS)

PROCEDURES = {
    "VQ-1": (
        gettext_lazy("Catholic conversion attempt"),
        gettext_lazy(
            "(one action or event, all attempts at once). 1. Roll one die per attempt. For the "
            "events Council of Troubles, Index of Prohibited Books, Tridentine Catechism and "
            "English Recusants, the first die is not rolled: it is a 6. 2. 2s and 3s miss and are"
            " set aside. 3. Each 1 is an unrest marker to place in step 6. The converting power "
            "may cancel one unrest marker by turning one 6 into a 5 (one 6 per marker cancelled)."
            " 4. Each 6 is a major conversion: keep it for step 5 (it may then flip a space that "
            "holds Protestant units), or flip now a space meeting all three conditions, to widen "
            "the base for step 5. 5. Each 4 or 5 is a minor conversion: flip a space meeting all "
            "three conditions. Each kept 6 flips a space meeting conditions a and b. 6. Place "
            "each unrest marker in a space converted by this action, chosen by the converting "
            "power; markers beyond the number of converted spaces are discarded. Conditions for "
            "flipping a space to Catholic: - (a) it is in the religious struggle zone(s) targeted"
            " by the action or event; - (b) it is adjacent (by land or pass) to a Catholic space,"
            " or it is a port on a sea zone holding other Catholic ports; that neighbour must not"
            " be in unrest and must have been Catholic at the start of this step; - (c) it holds "
            "no Protestant units."
        ),
    ),
    "VQ-2": (
        gettext_lazy("Protestant revolt"),
        gettext_lazy(
            "(an action of 2 to 5 CP). 1. Target: a space in France or the Netherlands, under "
            "French (France) or Spanish (Netherlands) political control, of Protestant religious "
            "influence, not under siege (unrest is allowed). 2. No Catholic units in the target: "
            "automatic success. Otherwise roll one die per CP spent, +1 die if the target is a "
            "Protestant home space; each 5 or 6 is a hit; the controlling power removes one of "
            "its Catholic units there per hit. If any Catholic unit of that power remains, the "
            "revolt fails and the procedure stops. 3. Leaders and non-Catholic units in the "
            "target are displaced (12.5: to the nearest fortified space of their power, or its "
            "capital); Catholic units of powers other than the owner are displaced too. 4. The "
            "target and adjacent spaces of the same struggle zone that hold no Catholic units and"
            " meet the step-1 requirements come under Protestant control; spaces flipped in this "
            "step, target included, never exceed the CP spent. Units there not controlled by the "
            "Protestant are displaced. 5. Add one Huguenot (France) or Dutch (Netherlands) "
            "regular to the target per 2 full CP spent, limited by the Protestant's counter mix. "
            "6. If the Protestant is not at war with France (France) or Spain (Netherlands), they"
            " are now at war. 7. If the Protestant has no capital for this struggle zone (and its"
            " capital is not on the turn track after a capture earlier this turn), it may place "
            "one in a Protestant-controlled, fortified Protestant home space (need not be a key "
            "space, need not be the target). 8. If a Protestant military leader for this zone can"
            " enter play, it may be placed in the target. *Example (seed):* Protestant plays a "
            "3-CP card against Lyon (not a Huguenot home space): 3 dice, 1 2 5 → one hit; the "
            "only Catholic unit, a French regular, is removed; success. Two French mercenaries "
            "are displaced (to Orléans). Lyon plus two adjacent Protestant spaces in France "
            "(Dijon, Clermont) come under Huguenot control (3 ≤ 3 CP). One Huguenot regular is "
            "placed in Lyon. France and the Protestant are at war. The Huguenot capital is "
            "already at La Rochelle, and Coligny and Navarre are already on the map."
        ),
    ),
    "VQ-3": (
        gettext_lazy("Espionage markers"),
        gettext_lazy(
            "From turn 3 (never on turns 1 and 2) every power may take espionage actions; at the "
            "start of turn 3 each power receives two Informant markers, one Assassination Used "
            "marker and one Cipher Key marker."
        ),
    ),
}


def sequence(turn: int, setup: dict) -> list[str]:
    """The impulses of one turn: rounds of the impulse order."""
    order = setup.get("impulse_order", [power for power, _ in POWERS])
    rounds = int(setup.get("impulse_rounds", DEFAULT_ROUNDS))
    return [f"impulse_{power}" for _ in range(rounds) for power in order]


def turn_label(turn: int, setup: dict) -> Text:
    """ "Turn 3", in each reader's language."""
    return Text("Turn %(turn)s", turn=turn)


RULESET = Ruleset(
    key="virgin_queen",
    package="rules.virgin_queen",
    name=gettext_lazy("Virgin Queen — conversion, revolt, espionage"),
    phases=PHASES,
    options=OPTIONS,
    sequence=sequence,
    turn_label=turn_label,
    gm_orders=GmOrders(
        kinds=(MOVE, BATTLE, CARD),
        module=gm_orders,
        help=gettext_lazy(
            "Cards, moves, battles and sieges are played at the table and recorded by the GM: "
            "a land stack moves to an adjacent space, a naval stack to a port on one of its "
            "sea zones."
        ),
    ),
    procedures=PROCEDURES,
    corpus_adapter="corpus_adapter",
    pure_modules=("procedures", "phases", "state", "edits", "gm_orders"),
    default_orders=gettext_lazy("it passes"),
)
