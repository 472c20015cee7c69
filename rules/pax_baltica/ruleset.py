"""Pax Baltica (siege, forage, replacements, fleets) as data: the season's phases and the
options.

A turn is a season; the year opens with the recruitment phase (the seed's "input"
phase). Each season the sides spend their actions, then sieges are resolved (after the
battles the GM enters), then every territory with blocks forages.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules.engine import GmOrders, OptionSpec, PhaseSpec, Ruleset
from rules.gm_orders import BATTLE, MOVE
from rules.pax_baltica import gm_orders, legal, phases
from rules.pax_baltica.phases import DRAW_RULE
from rules.pax_baltica.state import World
from rules.platform import Term
from rules.text import Text

SEASONS = (
    Text("Spring"),
    Text("Summer"),
    Text("Autumn"),
    Text("Winter"),
)

PHASES: tuple[PhaseSpec[World], ...] = (
    PhaseSpec(
        key="recruitment",
        name=gettext_lazy("Recruitment phase"),
        rules=("GNW-12", "GNW-6", "GNW-7", "GNW-9", "GNW-10", "GNW-11"),
        does=gettext_lazy(
            "Each nation receives its RP level plus this year's event RP, reinforces blocks "
            "on the map first (a line of communication needed; double cost without a "
            "friendly garrison), then draws new blocks from its pool one at a time (first "
            "step double) and places each before the next draw. Unspent RP are lost."
        ),
        owes=legal.can_recruit,
        standing=True,
    ),
    PhaseSpec(
        key="actions",
        name=gettext_lazy("Actions"),
        rules=("GNW-8", "GNW-13", "GNW-3"),
        does=gettext_lazy(
            "Each side spends its actions for the season: one step for a block on the map "
            "per action (no RP), a fleet move of up to 6 sea zones (galleys 3), or a siege "
            "declaration. Land moves and battles are entered by the GM."
        ),
        owes=legal.can_act,
    ),
    PhaseSpec(
        key="siege",
        name=gettext_lazy("Battles and sieges"),
        rules=("GNW-3", "GNW-1", "GNW-2", "GNW-5"),
        does=gettext_lazy(
            "After the battles the GM has entered, every declared siege is fought for one "
            "round against its garrison (a C1 defender); captured garrisons change control, "
            "surrendered territories lower their nation's RP level by 4."
        ),
        orders_from="none",
    ),
    PhaseSpec(
        key="forage",
        name=gettext_lazy("Forage"),
        rules=("GNW-4",),
        does=gettext_lazy(
            "Every territory with army or regiment blocks feeds them from its forage points "
            "and the armies' supply trains; each missing point costs a step, the strongest "
            "block first, never below strength 1."
        ),
        owes=legal.orders_forage_losses,
    ),
)

OPTIONS = (
    OptionSpec(
        "siege_fire_order",
        gettext_lazy("Equal letters in a siege round"),
        (
            ("defender_first", gettext_lazy("The garrison (defender) fires first")),
            ("attacker_first", gettext_lazy("The besiegers fire first")),
        ),
        decision="1",
    ),
    OptionSpec(
        "forage_further_losses",
        gettext_lazy("Forage losses after the first"),
        (
            (
                "owner_order",
                gettext_lazy("The owner's loss order given in advance; else the strongest"),
            ),
            ("strongest", gettext_lazy("Always the strongest block")),
        ),
        decision="2",
    ),
    OptionSpec(
        "unaffordable_draw",
        gettext_lazy("A drawn block that cannot be paid for"),
        (
            ("ends", gettext_lazy("Spending ends; the remaining RP are lost")),
            ("draw_again", gettext_lazy("It returns to the pool and the nation may draw again")),
        ),
        decision="3",
    ),
    OptionSpec(
        "siege_hits",
        gettext_lazy("Hits on besieging blocks"),
        (
            (
                "at_once",
                gettext_lazy("Take effect at once: a block hit before it fires rolls fewer dice"),
            ),
            ("end_of_round", gettext_lazy("Take effect at the end of the round")),
        ),
        decision="4",
    ),
    OptionSpec(
        "besiegers_lose",
        gettext_lazy("Besiegers who lose the battle in their territory"),
        (
            ("all_retreat", gettext_lazy("All besieging blocks retreat; no siege")),
            (
                "fought_retreat",
                gettext_lazy("Only the blocks that fought retreat; the others besiege"),
            ),
        ),
        decision="5",
    ),
    OptionSpec(
        "liberation",
        gettext_lazy("Removing an enemy garrison from one's own territory"),
        (
            ("restores", gettext_lazy("Is the liberation that restores the 4 RP")),
            ("by_gm", gettext_lazy("Restores nothing; the GM edits the RP level")),
        ),
        decision="6",
    ),
    OptionSpec(
        "forage_both_sides",
        gettext_lazy("Both sides' blocks in one territory"),
        (
            ("full_each", gettext_lazy("Each side checks forage against the full FP")),
            ("shared", gettext_lazy("The sides share the FP, the territory's controller first")),
        ),
        decision="7",
    ),
    OptionSpec(
        "action_doubling",
        gettext_lazy("A step bought by action outside a friendly garrison"),
        (
            ("one_action", gettext_lazy("Costs one action (doubling is for RP only)")),
            ("two_actions", gettext_lazy("Costs two actions")),
        ),
        decision="8",
    ),
    OptionSpec(
        "unplaceable_block",
        gettext_lazy("A block paid for with no legal place"),
        (
            ("continue", gettext_lazy("Returns to the pool, its RP lost; spending continues")),
            ("ends", gettext_lazy("Returns to the pool, its RP lost; spending ends")),
        ),
        decision="9",
    ),
    OptionSpec(
        "siege_block_order",
        gettext_lazy("The besieging blocks' firing order in a siege round"),
        (
            (
                "round_start",
                gettext_lazy("Fixed at the start of the round, by the strengths then"),
            ),
            (
                "as_hits_land",
                gettext_lazy("Re-sorted by the strengths left each time the garrison's hits land"),
            ),
        ),
        decision="11",
        help=gettext_lazy(
            "Besieging blocks of one letter fire strongest first (then the lower id). Under "
            "Decision 4's default the garrison's hits take effect at once, so a block that "
            "fires after the garrison may have become weaker than one behind it: it keeps its "
            "place (default) or falls back behind the stronger block. With hits at the end of "
            "the round the two give the same order."
        ),
    ),
)

PROCEDURES = {
    "GNW-1": (
        gettext_lazy("Siege"),
        gettext_lazy(
            "(6.3). Resolved with the battle rules, but for one round only. The garrison fights "
            "as a defending C1 block rolling as many dice as the garrison's strength; it never "
            "retreats and never takes losses. Each besieging block rolls its strength in dice and"
            " hits on its firepower or less. The garrison is captured when the attacker scores "
            "hits ≥ garrison strength in that round; otherwise the siege fails. Garrison hits "
            "reduce besieging blocks as in battle (one step per hit, to the strongest block "
            "first)."
        ),
    ),
    "GNW-2": (
        gettext_lazy("Siege result"),
        gettext_lazy(
            "(6.4). Captured garrison in enemy-nation territory: the attacker places its own "
            "garrison marker and takes control. Captured enemy garrison in friendly-nation "
            "territory: the enemy garrison is only removed. Exception: in Poland the attacker may"
            " always place its garrison. After a successful siege the attacker may not regroup; "
            "after a failed one it may not retreat. Capturing a capital forces peace on that "
            "nation (10.2): the campaign records it for the GM."
        ),
    ),
    "GNW-3": (
        gettext_lazy("Battle before siege"),
        gettext_lazy(
            "(6.5). A block cannot besiege and fight a battle in the same turn. If a territory "
            "with besiegers is attacked, besieging blocks that the attacker holds leave the siege"
            " and fight; the battle comes first. If the besieging side wins, the siege then "
            "proceeds without the blocks that fought; if it loses, the besiegers retreat and "
            "there is no siege."
        ),
    ),
    "GNW-4": (
        gettext_lazy("Forage"),
        gettext_lazy(
            "(7.1–7.3), after all battles, for each territory holding army or regiment blocks "
            "(fleets and blocks carried by fleets need none). Demand: 2 FP per army, 1 FP per "
            "regiment. Supply: the territory's FP, plus 1 per supply-train symbol of each army, "
            "usable only for regiments of that army's own nationality in the same territory "
            "(never for armies or allies). Deficit = demand − supply, if positive: the group "
            "loses that many steps. The first step is always lost by the strongest block (owner "
            "chooses among equals); the owner allocates the rest. Forage never eliminates a block"
            " and never takes one below strength 1; losses that cannot be taken are ignored. "
            "*Example (seed):* Pyotr I, Sheremetev (armies) and Woronjetski (regiment) in "
            "Kurland, FP 3, all at full strength. Pyotr I's train feeds Woronjetski; Sheremetev's"
            " train has no regiment to feed and is wasted. Demand 2 + 2 + 1 = 5, supply 3 + 1 = "
            "4: one step lost, by one of the strongest blocks; the Coalition player picks "
            "Sheremetev."
        ),
    ),
    "GNW-5": (
        gettext_lazy("RP level"),
        gettext_lazy(
            "(8.1). Each nation starts at its scenario RP level. Each of its territories whose "
            "garrison was besieged and surrendered lowers it by 4; liberating the territory "
            "restores the 4. Capturing enemy territory never raises a nation's level. *Example "
            "(seed):* Sweden takes Akershus and Christiansand from Denmark: Denmark 16 → 8; "
            "Sweden unchanged."
        ),
    ),
    "GNW-6": (
        gettext_lazy("Spending RP"),
        gettext_lazy(
            "(8.2). RP arrive at the start of each recruitment phase; unspent RP are lost at its "
            "end; never carried over, never given to another nation. Costs per step: army 2, "
            "regiment 1, fleet 2. Blocks on the map are reinforced first, then new blocks are "
            "drawn from the pool."
        ),
    ),
    "GNW-7": (
        gettext_lazy("Reinforcing a block on the map"),
        gettext_lazy(
            "(8.3). The block needs a line of communication (GNW-9); a block in a battle cannot "
            "be reinforced; a fleet only in a port; a block carried by a fleet never. In a "
            "territory without a friendly garrison every step costs double. *Example (seed):* "
            "Karl XII in Lietuva (Poland), 2 steps down; no friendly garrison in Vilnius, so 2 "
            "steps × 2 RP × 2 = 8 RP."
        ),
    ),
    "GNW-8": (
        gettext_lazy("Reinforcing by action"),
        gettext_lazy(
            "(8.4). A block on the map (only) may gain one step per action spent, with every "
            "restriction of GNW-7, at no RP cost; several steps per turn are allowed. *Example "
            "(seed):* August II at strength 1 in Lausitz; in autumn the Coalition spends 2 "
            "actions: August II gains 2 steps."
        ),
    ),
    "GNW-9": (
        gettext_lazy("Line of communication"),
        gettext_lazy(
            "(8.5). A block has one if its territory is of its own nation with a garrison its "
            "player controls, or if a path runs from it through adjacent friendly or transit "
            "territories to a territory its nation controls. The path may not enter or cross a "
            "territory holding enemy blocks, whoever controls it. A path may cross the sea: from "
            "or through a territory with a friendly port, through sea zones occupied by fleets of"
            " the same nationality, to a territory with a friendly port of that nation. *Example "
            "(seed):* the Swedish main army in Velikaya (Russian-controlled) can trace back to "
            "Livland; in Rzhev it could not while the Russians hold Velikaya."
        ),
    ),
    "GNW-10": (
        gettext_lazy("Drawing new blocks"),
        gettext_lazy(
            "(8.6). Pool blocks are face down and shuffled. Draw one at random and pay its first "
            "step at double cost (army and fleet 4, regiment 2), then as many further steps at "
            "normal cost as wanted, up to full strength; place it (GNW-11) before drawing the "
            "next. A drawn block that cannot be paid for (or may not be had) ends the nation's "
            "spending: it goes back to the pool and the remaining RP are lost. *Example (seed):* "
            "Saxony with 12 RP draws Schulenburg (army): 4 for the first step + 6 for 3 more, "
            "placed in Lausitz; then draws Lubomirski (Polish army): 2 RP cannot pay 4, so it "
            "returns to the pool and the 2 RP are lost."
        ),
    ),
    "GNW-11": (
        gettext_lazy("Placement"),
        gettext_lazy(
            "(8.7). New blocks go where their nation's deployment rules allow (scenario data, "
            "including red-dot blocks' special places), never into territory occupied by enemy "
            "blocks or holding an enemy garrison. They may exceed the territory's FP; forage "
            "applies only from the next forage phase. New fleets go to friendly ports allowed to "
            "their nation. A block with no legal place returns to the pool and its RP are lost."
        ),
    ),
    "GNW-12": (
        gettext_lazy("Event RP"),
        gettext_lazy(
            "(8.8). RP gained or lost by events apply to the next recruitment phase only; they do"
            " not change the RP level or victory checks. *Example (seed):* an event gives Sweden "
            "8 RP for the next recruitment phase; its RP level stays where it was."
        ),
    ),
    "GNW-13": (
        gettext_lazy("Fleet movement"),
        gettext_lazy(
            "(9.1). A fleet moves up to 6 sea zones per action (the Russian galley fleet: 3). "
            "Entering a port counts as one zone; leaving a port is part of the action and costs "
            "no movement. A fleet stops when it enters a sea zone holding one or more enemy "
            "fleets. Fleets never enter a territory without a port, nor a port occupied by the "
            "enemy."
        ),
    ),
}


def season_of(turn: int, setup: dict) -> tuple[int, str]:
    """(year, season name) of a turn; turn 1 is the scenario's first spring."""
    index = turn - 1
    return int(setup.get("start_year", 1700)) + index // len(SEASONS), SEASONS[index % 4]


def sequence(turn: int, setup: dict) -> list[str]:
    """The phases of one season, in order; the year opens with recruitment."""
    keys = ["recruitment"] if (turn - 1) % len(SEASONS) == 0 else []
    return keys + ["actions", "siege", "forage"]


def turn_label(turn: int, setup: dict) -> Text:
    """ "Spring 1700", in each reader's language."""
    year, season = season_of(turn, setup)
    return Text("%(season)s %(year)s", season=Term(season), year=year)


RULESET = Ruleset(
    key="pax_baltica",
    package="rules.pax_baltica",
    name=gettext_lazy("Pax Baltica — siege, forage, replacements, fleets"),
    phases=PHASES,
    options=OPTIONS,
    sequence=sequence,
    turn_label=turn_label,
    year_of=lambda turn, setup: season_of(turn, setup)[0],
    draw_rule=DRAW_RULE,
    draw_checks=phases.check_draws,
    gm_orders=GmOrders(
        kinds=(MOVE, BATTLE),
        module=gm_orders,
        rules=("GNW-3",),
        help=gettext_lazy(
            "Land moves and battles are entered by the GM: an army or regiment moves to an "
            "adjacent territory; a battle comes before any siege in its territory (GNW-3). "
            "Fleet moves are ordered above."
        ),
    ),
    procedures=PROCEDURES,
    corpus_adapter="corpus_adapter",
    pure_modules=("procedures", "phases", "state", "legal", "supply", "edits", "gm_orders"),
    default_orders=gettext_lazy(
        "it does nothing this phase (unspent RP are lost, forage losses fall on the strongest "
        "blocks)"
    ),
)
