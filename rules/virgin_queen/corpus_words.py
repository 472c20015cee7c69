"""The words of Virgin Queen's adjudication corpus (rules/virgin_queen/corpus/) that people
read on the rules page, for the catalogs to translate: the corpus map's description,
its leaders' names and the spaces' no scenario has, and every case's title, in
procedure order. The page shows them through gettext; tests/corpus/test_words.py checks
that each of them is listed here."""

from typing import Any

from rules.text import Text
from rules.virgin_queen.edits import KINDS, RELIGIONS
from rules.virgin_queen.state import (
    AUTOMATIC_SIX_EVENTS,
    POWER_NAMES,
    PROTESTANT_NATION,
    ZONE_NAMES,
)

WORDS = (
    Text(
        "France (struggle zone france): Paris (French capital, key), Orléans and Bordeaux "
        "(port) are Catholic, French and fortified; Lyon (fortified), Dijon, Clermont, Nantes "
        "(port) and Rouen (port) are Protestant and French; La Rochelle is the Huguenots' "
        "fortified home space and capital, a port, Protestant-controlled. Links: Paris – "
        "Orléans, Dijon, Rouen, Brussels; Orléans – Lyon, Bordeaux; Lyon – Dijon, Clermont; "
        "La Rochelle – Nantes, Bordeaux. The Netherlands (zone netherlands): Brussels is "
        "Catholic, Spanish and fortified; Antwerp (fortified port), Amsterdam (fortified "
        "port, Dutch home) and Utrecht are Protestant and Spanish. Links: Brussels – Antwerp, "
        "Utrecht; Antwerp – Amsterdam; Amsterdam – Utrecht. London (zone england) is English, "
        "Protestant, fortified. Sea zones: Bay of Biscay (Bordeaux, La Rochelle, Nantes), the "
        "Channel (Rouen), the North Sea (Antwerp, Amsterdam). Units: 2 French regulars in "
        "Paris; 1 French regular and 2 French mercenaries in Lyon; 2 Huguenot regulars in La "
        "Rochelle; 3 Spanish regulars in Brussels; 1 Spanish regular and 1 Spanish naval unit "
        "in Antwerp. Leaders: Coligny (Protestant, France) in La Rochelle, Guise (French) in "
        "Lyon, Alba (Spanish) in Brussels, William of Orange (Protestant, Netherlands) off "
        "the map and able to enter. Capitals: Huguenot at La Rochelle, no Dutch capital. "
        "Counter mix: 6 Huguenot, 1 Dutch regulars. Catholic powers: Spain, France, the Holy "
        "Roman Empire. Turn 1; no wars."
    ),
    # names
    Text("Alba"),
    Text("Auxerre"),
    Text("Charles"),
    Text("Coligny"),
    Text("Guise"),
    Text("Louis of Nassau"),
    Text("Valence"),
    Text("William of Orange"),
    # VQ-1 Catholic conversion attempt
    Text("4, 2, 1: a minor conversion flips Lyon, a miss, and an unrest marker that goes to Lyon"),
    Text("2s and 3s miss: nothing converts"),
    Text("Council of Troubles: the first die is not rolled, it is a 6"),
    Text(
        "A 6 kept for step 5 flips a space holding Protestant units (La Rochelle, next to "
        "Catholic Bordeaux)"
    ),
    Text(
        "A 6 flipped at once (Lyon) widens the base: a 5 then flips Clermont, next to Lyon "
        "(Decision 4)"
    ),
    Text(
        "Nothing chains within one step: Clermont, next only to Lyon, is no choice for a 4 "
        "while Lyon is Protestant"
    ),
    Text(
        "A port on a sea zone with another Catholic port is linked (Nantes, by Bordeaux); a "
        "neighbour in unrest is no link"
    ),
    Text("Condition a: only spaces of the struggle zones targeted"),
    Text("Each 6 lowered to 5 cancels an unrest marker (Decision 1), and flips as a 5 in step 5"),
    Text("Decision 1 option: at most one 6 lowered per action; two are refused"),
    Text("No more 6s lowered than markers taken"),
    Text("Unrest markers beyond the spaces converted are discarded"),
    Text("No space converted: every unrest marker is discarded"),
    Text(
        "A 6 with nothing else to do is kept without asking, and wasted when no space can be "
        "flipped"
    ),
    Text(
        "Each die with a single choice flips it without asking; a die whose only space "
        "another took is wasted"
    ),
    Text(
        "A die with as many spaces as there are dice must be given one (two dice, Lyon and Dijon)"
    ),
    Text("A space is flipped once: the same space for two dice is refused"),
    Text("The converting power places the unrest when it has fewer markers than converted spaces"),
    Text("The question of step 6 offers only the converted spaces, exactly as many as the markers"),
    Text("Only Catholic powers convert; at least one attempt, one known struggle zone"),
    Text("Only the power converting answers"),
    Text(
        "The GM answers for France; an absent France's default flips as many spaces as the dice can"
    ),
    Text("Several struggle zones at once; the tally counts majors, minors, unrest and misses"),
    Text("Decision 5: a die may be left blank only when no space is left for it"),
    Text("Decision 5: the dice together must flip as many spaces as they can"),
    Text("A struggle zone that does not exist is refused, the first one named"),
    Text("The event's 6 and a rolled 6 are asked about as two dice, each named"),
    # VQ-2 Protestant revolt
    Text(
        "The seed's example: 3 CP against Lyon, 1 2 5, the French regular destroyed; Lyon, "
        "Dijon and Clermont Huguenot"
    ),
    Text(
        "The seed's example, step 3: France is asked where its displaced pieces go, among the "
        "nearest"
    ),
    Text("No Catholic unit in the target: automatic success, no dice"),
    Text("One more die in a Protestant home space; then the Dutch capital and William of Orange"),
    Text("Fewer hits than units: Spain chooses its losses, a unit remains, the revolt fails"),
    Text("Hits are offered up to each stack's units: 2 hits on 3 regulars and 1 naval unit"),
    Text("Every hit must be taken, one unit each"),
    Text(
        "One stack and fewer hits than units: the loss is taken without asking, and the "
        "revolt fails"
    ),
    Text("No hit at all: the revolt fails"),
    Text("A revolt is 2 to 5 CP: 1 CP is refused"),
    Text("…and 6 CP is refused"),
    Text("Only in France or the Netherlands"),
    Text("In France only under French political control"),
    Text(
        "Only in a space of Protestant religious influence, and not under siege (unrest is allowed)"
    ),
    Text("A Catholic space is no target"),
    Text(
        "Decision 7: a third Catholic power's units are not hit, do not block success, and "
        "are displaced (with nowhere to go: eliminated)"
    ),
    Text(
        "A piece with one legal space goes there without asking, joining its power's stack of "
        "that kind"
    ),
    Text(
        "Decision 2 option: displaced pieces go to the nearest fortified space, first by "
        "name, without asking"
    ),
    Text(
        "Decision 6: extra spaces are adjacent to the target, as many as the CP allow with "
        "the target counted"
    ),
    Text("Decision 6: no chaining, and never a space with Catholic units"),
    Text(
        "The extra spaces asked for: only those adjacent, in the zone, meeting step 1 and "
        "free of Catholic units"
    ),
    Text("Units in an extra space that the Protestant does not control are displaced (step 4)"),
    Text("One regular per 2 full CP (5 CP: 2), as far as the counter mix goes (1 Dutch left)"),
    Text("Already at war: the war stands; a capital on the turn track is not placed"),
    Text(
        "No Dutch capital and no fortified Protestant home space held: no capital; the "
        "Protestant may decline a leader"
    ),
    Text("An absent player's answers: hits on the stacks in turn"),
    Text(
        "An absent player's answers: displaced pieces to the nearest fortified space "
        "(Valence, before Paris the capital), the most extra spaces first by name"
    ),
    Text(
        "Decision 2 option: automatic displacement takes the nearest fortified space, not the "
        "capital first by name"
    ),
    Text(
        "Pieces of two powers to displace: the owner of the first is asked about its own "
        "pieces only, then the other"
    ),
    Text("…France is asked first, about its own pieces only"),
    Text(
        "An absent Protestant places the Dutch capital in the first space offered and the "
        "first of two leaders offered"
    ),
    Text(
        "Units in two extra spaces, their owner absent: each goes to the nearest fortified "
        "space from where it stood"
    ),
    Text("A piece the GM moved away while the revolt waited is not displaced again"),
    # VQ-3 Espionage markers
    Text(
        "At the start of turn 3 each power receives 2 Informant, 1 Assassination Used and 1 "
        "Cipher Key markers"
    ),
    Text("Turn 2: no espionage action, no markers"),
    Text("Turn 1: no espionage action"),
    Text("Turns 3 and 4: the markers are given once; espionage goes on"),
    Text("The new markers are added to any a power already holds"),
)

# The values its cases give that the page words (campaign/views/pages.py value_html),
# beside the names of the map: {value: its words}, or {(key, value): its words} where
# the value means another thing under that key; None for a key of the data that names
# nothing (shown as code).
VALUES: dict[Any, Text | None] = {
    **POWER_NAMES,
    **{value: name for value, name in ZONE_NAMES.items() if value not in POWER_NAMES},
    **{("religion", value): word for value, word in RELIGIONS.items()},
    **KINDS,
    **{str(name): name for name in PROTESTANT_NATION.values()},
    **AUTOMATIC_SIX_EVENTS,
    "military": Text("Military"),
    "keep": Text("Keep it for step 5 (it may flip a space with Protestant units)"),
    "lower": Text("Lower it to 5 to cancel an unrest marker"),
    "and": Text("and"),
    # a question waiting for an answer: the procedure's step, the power
    **{step: None for step in ("conversion", "flips", "sixes", "unrest", "revolt")},
    **{step: None for step in ("displace", "extra", "hits")},
    "atlantis": None,
    "narnia": None,
}
# Values that are sentences (a refusal, a question, a label), each its own msgid.
PHRASES = (
    Text("off the map"),
    Text("1 unrest marker"),
    Text("1 Spanish naval unit in Antwerp"),
    Text("2 French mercenaries in Lyon"),
    Text("3 Spanish regulars in Antwerp"),
    Text("Die 1 (6: Council of Troubles)"),
    Text("Die 1 (6: Index of Prohibited Books)"),
    Text("Die 2 (6)"),
    Text("Spaces adjacent to Lyon also under Protestant control (at most 3)"),
    Text("2 CP put at most 2 spaces under Protestant control, Lyon included: at most 1 more."),
    Text("2 hits must be taken, one unit each, not 1."),
    Text("A revolt costs 2 to 5 CP, not 1."),
    Text("A revolt costs 2 to 5 CP, not 6."),
    Text(
        "At most 1 six may be lowered to cancel unrest (one per action, by campaign option), not 2."
    ),
    Text(
        "At most 1 six may be lowered to cancel unrest (one per unrest marker, and 1 marker "
        "taken), not 2."
    ),
    Text("Brussels is Catholic, not under Protestant religious influence: no revolt there."),
    Text(
        "Die 1 (5): Dijon is not in the Netherlands, the struggle zone of this action "
        "(condition a)."
    ),
    Text(
        "Die 2 (5) can still flip Dijon: a die is wasted only when no eligible space is left "
        "for it (Decision 5)."
    ),
    Text(
        "Die 2 (5): Clermont is next to no Catholic space out of unrest, nor a port on a sea "
        "zone with a Catholic port, as of the start of this step (condition b)."
    ),
    Text("Die 2 (5): a choice is needed."),
    Text(
        "La Rochelle is not under French political control (the Protestant controls it): no "
        "revolt there."
    ),
    Text("London is in neither France nor the Netherlands, where revolts happen."),
    Text("Lyon is chosen twice: a space is flipped only once."),
    Text(
        "Spaces adjacent to Lyon also under Protestant control (at most 3): Clermont holds "
        "Catholic units."
    ),
    Text(
        "Spain rolled dice 6 3 for 2 conversion attempts in the Netherlands (Council of "
        "Troubles: the first die is a 6, not rolled). Step 4: each 6 is a major conversion. "
        "Keep it for step 5, where it flips a space meeting conditions a and b, even one "
        "holding Protestant units; or flip now a space meeting all three conditions, which "
        "can then be the Catholic neighbour of a space flipped in step 5. The conditions: (a) "
        "the space is in the Netherlands; (b) it is adjacent, by land or pass, to a Catholic "
        "space, or it is a port on a sea zone with another Catholic port, and that space is "
        "not in unrest and was Catholic at the start of this step; (c) it holds no Protestant "
        "units."
    ),
    Text(
        "Spain rolled dice 6 5 4 1 3 for 5 conversion attempts in the Netherlands and France. "
        "Step 4: each 6 is a major conversion. Keep it for step 5, where it flips a space "
        "meeting conditions a and b, even one holding Protestant units; or flip now a space "
        "meeting all three conditions, which can then be the Catholic neighbour of a space "
        "flipped in step 5. Or lower it to 5 to cancel an unrest marker (step 3: 1 marker "
        "taken, at most 1 six lowered): in step 5 it then flips a space meeting all three "
        "conditions, as a minor conversion does. The conditions: (a) the space is in the "
        "Netherlands and France; (b) it is adjacent, by land or pass, to a Catholic space, or "
        "it is a port on a sea zone with another Catholic port, and that space is not in "
        "unrest and was Catholic at the start of this step; (c) it holds no Protestant units."
    ),
    Text("The Protestant is not a Catholic power: only they attempt conversions."),
    Text("There is no religious struggle zone “atlantis”."),
    Text(
        "These dice can flip 2 spaces together and your answer flips 1: give each die a space "
        "so that none is wasted (Decision 5)."
    ),
    Text("This conversion waits for France, not England."),
    Text("Utrecht is under siege: no revolt there."),
)
