"""The words of Empires in Arms's adjudication corpus (rules/empires_in_arms/corpus/) that people
read on the rules page, for the catalogs to translate: the corpus map's description,
its areas' names no scenario has, and every case's title, in
procedure order. The page shows them through gettext; tests/corpus/test_words.py checks
that each of them is listed here."""

from typing import Any

from rules.empires_in_arms.edits import MINOR_STATUSES
from rules.text import Text

WORDS = (
    Text(
        "Seven powers, each Neutral with 10 PP and $20, paying $d6 against a bad roll when "
        "asked. Palatinate (minor, French, manpower 2, NM Great Britain +1), Hesse (minor, "
        "Prussian, manpower 0, NM Austria +2), Wallachia (minor, a conquered minor of Turkey, "
        "manpower 2), Egypt (Islamic minor, Turkish, manpower 2); Spanish provinces Castile "
        "(guerrilla value 3, manpower 4), Granada (5, manpower 2), Catalonia (4, manpower 2) "
        "and Andalusia (4, manpower 3, ceded to France); Languedoc (French province, manpower "
        "3), Bosnia (Ottoman Islamic province, manpower 1). Links: Castile – Granada, "
        "Andalusia, Catalonia; Granada – Andalusia; Catalonia – Languedoc. No wars, "
        "alliances, corps, revolts, guerrillas or depots."
    ),
    # names
    Text("Castile"),
    Text("Granada"),
    # EIA-1 Revolt attempt
    Text("The GM's example: 4 +1 NM +1 Dominant = 6, the revolt breaks out in Palatinate"),
    Text("A modified 5 fails, and the attempt still costs 1 PP"),
    Text("An unmodified 6 is enough: 6 ≥ 6"),
    Text("Each revolt this sponsor let down in the minor is −1: 6 +1 −2 = 5 fails"),
    Text("One let-down: 6 +1 −1 = 6 still breaks out"),
    Text(
        "Let-downs count in minors only: Spain in ceded Andalusia, +3 as its former home province"
    ),
    Text("Fiasco is −2: 6 +1 −2 = 5 fails"),
    Text("Instability is −1: 6 +1 −1 = 6 breaks out"),
    Text("The national modifier comes from the Minor Country Chart: Austria +2 in Hesse"),
    Text("At most three attempts a revolt step: the fourth is refused, no PP spent, no die"),
    Text(
        "Decision 7 option per target: three failed attempts on Palatinate, the fourth there "
        "refused"
    ),
    Text("Decision 8: no PP minimum, PP go negative"),
    Text("Decision 8 option: with a 1 PP minimum, 0 PP is refused and costs nothing"),
    Text("Decision 8 option: exactly 1 PP is enough, and goes to 0"),
    Text(
        "Not a target: a power's own minor, an ally's, one already in revolt, an unceded "
        "province, a neutral minor"
    ),
    Text("A revolt that broke out makes its area no target for a later attempt of the step"),
    Text("Decision 17: an area held by the sponsor's ally is no target: no die, no PP spent"),
    Text(
        "Decision 17 option: Austria incites a revolt in its ally Prussia's Hesse; it breaks "
        "out, gets its number and ends at once, let down"
    ),
    Text(
        "Decision 17 option: the let-down counts at once, so a second attempt in Hesse the same "
        "step is 4 +2 −1 = 5 and fails, its PP spent"
    ),
    # EIA-2 Revolt strength
    Text("The GM's example: 5 +1 +1 −0 −1 = 6, capped to 5"),
    Text("The manual's example: Spain in Andalusia, +3 −1 Dominant −1 French corps, rolls 3 → 4"),
    Text("Below 2 is raised to 2"),
    Text("Exactly 2 stands as rolled"),
    Text("Exactly 5 stands as rolled"),
    Text("The controller's national modifier is subtracted: Austria +2, Prussia +2 in Hesse"),
    Text("The controller's Fiasco counts for the revolt: −(−2) = +2"),
    Text("Only the controller's corps is −1: a British corps in Palatinate changes nothing"),
    Text("The controller's corps elsewhere is no −1; in the area it is"),
    Text("A ceded province's controller has NM 0, even where the chart gives it one"),
    # EIA-3 Revolt guerrillas
    Text("Revolt number 5, roll 2: three guerrilla factors"),
    Text("A roll equal to the revolt number creates none"),
    Text("A roll one under the revolt number creates one"),
    Text("No enemy needs to be there; the new factors join the revolt's stack"),
    Text("The cap is 5 × manpower: 9 in Palatinate (manpower 2), 4 wanted, 1 fits"),
    Text("Manpower 0 counts as 1: Hesse holds at most 5"),
    Text("An area already at its cap gets none"),
    Text("An area already over its cap (the GM lowered its manpower) gets none and loses none"),
    Text("Decision 16: Spanish and besieged factors count toward the cap"),
    Text("Each sponsor rolls in its own guerrilla step, in land-phase order"),
    Text("Decision 1 option: at the end of the political phase, after the revolt step's attempts"),
    Text(
        "Decision 1 option: then the land phase rolls no revolt guerrillas (its only line "
        "clears the land combat marks)"
    ),
    Text("The GM places revolt guerrillas up to the cap, and no more: Hesse (manpower 0) holds 5"),
    Text("…exactly to the cap they may"),
    Text("A stack the GM enlarges past the cap is refused (besieged factors count)"),
    Text("Lowering a revolting area's manpower below what its guerrillas need is refused"),
    Text("…to exactly the manpower they need it may be lowered"),
    # EIA-4 Anti-guerrilla operation
    Text("Higher than the revolt number: the guerrillas are eliminated and the number drops by 1"),
    Text("Equal to the revolt number is no success"),
    Text("Two eligible corps: +1 turns a 3 into a success against 3"),
    Text("A corps that fought, is besieged or besieges is not eligible: one eligible corps, no +1"),
    Text("With no eligible corps there is no operation: the order is skipped"),
    Text("A modified 6 that succeeds lowers the number by 1 more (Decisions 3 and 6)"),
    Text("Decision 3 option off: a modified 6 lowers it by 1 only"),
    Text("Decision 6: a modified 6 that fails (revolt number 6) lowers nothing"),
    Text("Decision 6 option: any modified 6 lowers it, success or not"),
    Text("A modified 1: the controller pays $d6 (standing order), the number stays"),
    Text("A modified 2 is no bad roll"),
    Text("A payment die equal to the treasury is paid: $5 of $5"),
    Text("Decision 15: $6 against a treasury of $5 is not paid, and the number rises"),
    Text("Decision 15 option: the controller pays its whole treasury and the number stays"),
    Text(
        "Decision 5: a controller whose standing order is not to pay rolls no die; the number rises"
    ),
    Text("Decision 5 option: the controller never pays"),
    Text(
        "Decision 2 option (rule 4.3.5 literally): a modified 6 raises the number unless the "
        "controller pays"
    ),
    Text(
        "Decision 10: another power's operation lowers the number; on its bad roll the "
        "controller pays"
    ),
    Text("Decision 10 option: only the controller's operations lower the number"),
    Text(
        "The Ottoman bonus in an Ottoman home province: +1 per eligible corps, at most +3, "
        "replacing the +1 for two corps"
    ),
    Text("The Ottoman bonus with one corps: +1, where another power would get nothing"),
    Text("Decision 4 option: the Ottoman bonus adds to the +1 for two corps"),
    Text(
        "The Ottoman bonus in a conquered minor (Wallachia), not in a merely controlled one (Egypt)"
    ),
    Text("Decision 16: besieged guerrilla factors survive a successful operation"),
    Text("Decision 16 option: besieged factors are eliminated too"),
    Text("Decision 11: an operation in a revolting area with no guerrillas lowers the number"),
    Text("Decision 11 option: without guerrillas there, no operation"),
    Text("Spanish guerrillas outside a revolt: the printed guerrilla value of Castile (3)"),
    Text(
        "Decision 12: Andalusia in revolt uses its revolt number (2), not its printed value: "
        "a 3 succeeds and puts the revolt down"
    ),
    Text("Decision 12 option: the printed value (4) of Andalusia in revolt; a 3 fails"),
    Text(
        "The sponsor does not operate against its own revolt, nor a power against its allies' "
        "guerrillas"
    ),
    Text("Decision 2 option: a modified 5 raises nothing"),
    # EIA-5 Aid to a revolt
    Text("$3 and a roll of 3: the revolt number rises by 1"),
    Text("$3 and a roll of 4: no effect, the money is spent all the same"),
    Text("The least aid, $1, helps on a 1 only"),
    Text("The most aid, $6, always helps"),
    Text("$0 and $7 are no aid: refused, nothing spent, no die"),
    Text("A sponsor may spend its whole treasury: $4 of $4"),
    Text("…but not more than it has: $5 with $4 is refused"),
    Text("Decision 9: only the sponsor aids its revolt; where there is no revolt there is no aid"),
    Text("Decision 9 option: the sponsor's ally may aid too, a stranger still may not"),
    Text("Aid to a revolt that has ended is skipped"),
    # EIA-6 What changes a revolt number
    Text("New revolt guerrillas leave the number as it was"),
    Text("Depots destroyed by the revolt's guerrillas leave the number as it was"),
    Text("A month without guerrillas, counted in the conquest step, leaves the number as it was"),
    Text("Spanish guerrillas appearing in a Spanish province in revolt leave its number as it was"),
    Text("In one economic phase only the aided revolt's number changes"),
    Text("A lapse in the peace step ends one revolt and leaves another's number as it was"),
    # EIA-7 Ending a revolt
    Text(
        "The sponsor lets its revolt in a minor lapse: it ends, its guerrillas go, and it "
        "counts as let down"
    ),
    Text("Let-downs add up: a second lapse in Palatinate makes 2"),
    Text("A lapse in a ceded province ends the revolt; let-downs count in minors only"),
    Text("Only the sponsor lets a revolt lapse"),
    Text("Sponsor and controller become allies: the revolt ends at once, let down"),
    Text("The area now belongs to the sponsor: the revolt is over, not let down"),
    Text("The minor becomes neutral: its guerrilla factors become its infantry"),
    Text(
        "An Islamic minor becomes neutral: Islamic infantry; with no guerrillas, nothing to convert"
    ),
    Text("A revolt number of 1 puts the revolt down; 2 does not"),
    Text(
        "Three months without guerrillas: the revolt ends in the fourth month's political "
        "phase, and its area may be targeted again"
    ),
    Text(
        "Counting in the conquest step: a month with guerrillas starts the count again; the "
        "third month without warns of the end"
    ),
    Text(
        "In a month without a political phase, the three-month ending comes at the start of "
        "the land phase, before any guerrilla roll"
    ),
    # EIA-8 Successful revolt
    Text(
        "At peace: a minor whose capital the guerrillas held a month, number 6, becomes the "
        "sponsor's allied minor"
    ),
    Text("Revolt number 5 is not enough; 6 is"),
    Text("The capital not yet held a month is not enough"),
    Text("Every factor of the revolt besieged: no success, and a note for the GM"),
    Text("One unbesieged factor is enough, the besieged ones become infantry too"),
    Text(
        "At peace: other powers' garrisons are repatriated and their corps moved, for the GM to do"
    ),
    Text(
        "At peace: a ceded province reverts to the sponsor's home nation, its guerrillas the "
        "sponsor's infantry"
    ),
    Text(
        "At peace, a province that never was the sponsor's: the sponsor takes control and the "
        "GM is asked to check"
    ),
    Text(
        "At war, a minor: the sponsor chose a client state, with infantry equal to the guerrillas"
    ),
    Text("At war, an Islamic minor as a client state: Islamic infantry"),
    Text(
        "At war, a minor: conquered as chosen, or by default when no choice was given; "
        "guerrillas removed"
    ),
    Text("At war, the sponsor's former home province: regular infantry equal to the guerrillas"),
    Text("At war, a province that was never the sponsor's: conquered, guerrillas removed"),
    Text(
        "The GM records how long the guerrillas have held the capital; a success follows in "
        "the conquest step"
    ),
    Text("Months held cannot be negative"),
    # EIA-9 Revolt guerrillas' limits
    Text("Revolt guerrillas never leave their minor or province of origin"),
    Text("Spanish guerrillas move one adjacent area into another Spanish province"),
    Text("Spanish guerrillas never leave Spain's home nation: not into Languedoc"),
    Text("Besieged guerrillas stay; a stack moves one adjacent area only"),
    Text(
        "A stack moves once a step; moved stacks join the like stack where they end, after "
        "all the moves"
    ),
    Text("Not into an area in revolt that the stack would take over its 5 × manpower cap"),
    Text("…but exactly up to the cap they may"),
    Text("A power moves only its own stacks, each named by a stack that exists"),
    Text("Not to an area that is not adjacent"),
    Text(
        "An area in revolt at its cap that is not adjacent: the reason given is that it is "
        "not adjacent"
    ),
    # EIA-10 Spanish guerrillas
    Text("An unbesieged enemy corps in unceded Castile (value 3): a 1 makes two factors"),
    Text("A roll equal to the guerrilla value makes none; one under it makes one"),
    Text(
        "Who occupies: an unbesieged corps or a garrisoned depot of a power at war with "
        "Spain; not a besieged corps, an empty depot, nor a power at peace"
    ),
    Text(
        "A ceded former Spanish province: Spain rolls against its controller's corps, even at peace"
    ),
    Text("In a ceded province, a third power at peace with Spain is no occupier; at war it is"),
    Text("Spain's own corps, or an ally's, calls for no roll"),
    Text("Outside a revolt there is no 5 × manpower cap; the new factors join Spain's stack"),
    Text("In a Spanish province in revolt the cap binds"),
    Text("Several provinces roll in name order"),
    Text("Only Spanish provinces: an enemy corps in French Languedoc calls for no Spanish roll"),
    Text(
        "Spain loses a field combat in unceded Castile: one Spanish guerrilla factor at once "
        "(the GM enters it)"
    ),
    Text(
        "The factor joins Spain's unbesieged Spanish stack there, not a besieged one nor a revolt's"
    ),
    Text("Not in a ceded province"),
    Text(
        "A Spanish province France holds without its cession counts as unceded: at peace, "
        "France is no occupier"
    ),
    # EIA-11 Guerrilla depot attack
    Text("Seven factors attack a French depot: a 5 destroys it"),
    Text("A 4 has no effect"),
    Text("Six factors may not attack; besieged factors do not count"),
    Text("−1 per enemy corps in the province: 6 −2 = 4, no effect"),
    Text("Decision 13: a depot garrison of 10 factors or more is −1; of 9, nothing"),
    Text("Decision 13 option “exactly 10”: a garrison of 11 is no −1, of 10 it is"),
    Text("+1 with ten guerrilla factors or more (not with nine): 4 +1 = 5 destroys"),
    Text(
        "Port-city depots are immune; a destroyed depot's garrison retreats or joins a corps, "
        "for the GM"
    ),
    Text("Only port-city depots, or only an ally's depot: no attack"),
    Text("Spanish guerrillas attack a depot of a power at war with Spain"),
    # EIA-12 Spanish guerrilla removal
    Text(
        "No enemy in unceded Spain: every Spanish guerrilla factor goes, one militia factor "
        "per three"
    ),
    Text("Rounded down: two factors go for no militia; militia already owed is kept"),
    Text("Exactly three factors: one militia factor"),
    Text("An enemy corps in unceded Spain keeps them"),
    Text("An enemy only in ceded Andalusia: the Spanish guerrillas go, those there too"),
    Text("A depot garrison of 1 of a power at war is an enemy factor; an empty depot is none"),
    Text("An empty depot alone: the guerrillas go"),
    Text("A corps of a power at peace with Spain is no enemy; revolt guerrillas are not removed"),
    Text(
        "Decision 18: the removal also takes the factors Spain's roll raised in ceded Andalusia "
        "the same step"
    ),
    Text(
        "Decision 18 option: the 3 factors raised in ceded Andalusia this step stay; the 2 "
        "there before and Castile's 4 go"
    ),
    Text(
        "Decision 18 option: when Andalusia's roll raises nothing, every Spanish factor goes as "
        "before"
    ),
)

# The values its cases give that the page words (campaign/views/pages.py value_html),
# beside the names of the map: {value: its words}, or {(key, value): its words} where
# the value means another thing under that key; None for a key of the data that names
# nothing (shown as code).
VALUES: dict[Any, Text | None] = {
    "Dominant": Text("Dominant"),
    "Fiasco": Text("Fiasco"),
    "Instability": Text("Instability"),
    **MINOR_STATUSES,
    "spanish": Text("Spanish guerrillas"),
    "besieged": Text("besieged"),
    ("edit", "guerrilla"): None,
    ("edit", "revolt"): None,
    ("phase", "revolt"): None,
}
