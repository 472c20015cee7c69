"""The words of Pax Baltica's adjudication corpus (rules/pax_baltica/corpus/) that people
read on the rules page, for the catalogs to translate: the corpus map's description,
its blocks' names and the territories' no scenario has, and every case's title, in
procedure order. The page shows them through gettext; tests/corpus/test_words.py checks
that each of them is listed here."""

from rules.pax_baltica.state import KIND_NAMES
from rules.text import Text

WORDS = (
    Text(
        "Sweden (20 RP; new blocks in Stockholm and Livland, new fleets in Stockholm) against "
        "the Coalition: Russia (12 RP; Velikaya, Rzhev; fleets in St Petersburg), "
        "Saxony-Poland (12 RP; Lausitz, Lietuva) and Denmark (16 RP; Copenhagen, Akershus; "
        "fleets in Copenhagen). Land: Stockholm (Swedish capital, port, garrison 3, FP 3), "
        "Livland (Swedish, port, garrison 2, FP 2) – Velikaya (Russian, garrison 1, FP 2) – "
        "Rzhev (Russian, garrison 1, FP 2); St Petersburg (Russian capital, port, garrison 2, "
        "FP 2) – Velikaya; Livland – Kurland (no nation, transit, port, FP 3) – Lietuva "
        "(Saxon, in Poland, garrison 1, FP 2) – Lausitz (Saxon, garrison 2, FP 3); Akershus "
        "(Danish, port, garrison 2, FP 2) – Christiansand (Danish, port, garrison 1, FP 1); "
        "Copenhagen (Danish capital, port, garrison 3, FP 3). Sea zones, in a chain: Gulf of "
        "Finland – Central Baltic – Southern Baltic – Western Baltic – Kattegat – Skagerrak – "
        "North Sea, and Gulf of Bothnia – Central Baltic. Ports: St Petersburg (Gulf of "
        "Finland), Stockholm (Gulf of Bothnia, Central Baltic), Livland and Kurland (Central "
        "Baltic), Copenhagen (Western Baltic, Kattegat), Akershus (Skagerrak), Christiansand "
        "(Skagerrak, North Sea). Each side has 3 actions left and 3 a season. No blocks."
    ),
    # names
    Text("Astrakhan"),
    Text("August II"),
    Text("Azov"),
    Text("Baltic squadron"),
    Text("Butyrsky"),
    Text("Copenhagen"),
    Text("Dalregementet"),
    Text("Danish fleet"),
    Text("English Channel"),
    Text("Flemming"),
    Text("Galley fleet"),
    Text("Karl XII"),
    Text("Kattegat"),
    Text("Kazan"),
    Text("Lubomirski"),
    Text("Menshikov"),
    Text("North Sea"),
    Text("Potocki"),
    Text("Preobrazhensky"),
    Text("Pyotr I"),
    Text("Rehnskiold"),
    Text("Repnin"),
    Text("Reventlow"),
    Text("Russian fleet"),
    Text("Saxon flotilla"),
    Text("Schulenburg"),
    Text("Sheremetev"),
    Text("Sjaelland"),
    Text("St Petersburg"),
    Text("Swedish fleet"),
    Text("Tver"),
    Text("Upplands"),
    Text("Woronjetski"),
    # GNW-1 Siege
    Text("Karl XII (B3) fires before the garrison (C1): 2 hits against a garrison of 2 capture it"),
    Text("One hit short: the garrison holds, and its hits cost the besieger steps"),
    Text(
        "Decision 1: on equal letters the garrison fires first, and its hit takes a die from "
        "Pyotr I at once"
    ),
    Text("Decision 1 option: the besiegers fire first, with all their dice"),
    Text("Decision 4 option: the garrison's hits take effect at the end of the round"),
    Text(
        "Besiegers fire strongest first; each garrison hit falls on the strongest block, the "
        "lower id on a tie"
    ),
    Text(
        "A besieger at strength 1 hit by the garrison is eliminated and goes to the pool; "
        "hits beyond the besiegers are lost"
    ),
    Text("A block rated A fires before the garrison; firepower 1 hits on a 1 only"),
    Text("No siege where the garrison is gone or the territory is held by a friend"),
    Text(
        "Laying a siege costs the side one action; the blocks named must be in the territory, "
        "not fleets, not already besieging"
    ),
    Text("A siege the side has no action left for is refused"),
    Text(
        "Decision 11: the firing order is fixed at the start of the round, so Pyotr I, hit "
        "down to 2, still fires before Woronjetski"
    ),
    Text(
        "Decision 11 option: re-sorted as the hits land, Woronjetski (3) now fires before "
        "Pyotr I (2), and the same dice leave the garrison holding"
    ),
    # GNW-2 Siege result
    Text("In enemy-nation territory the captor places its own garrison marker and takes control"),
    Text(
        "An enemy garrison in one's own territory is only removed: control returns home, and "
        "the liberation restores the RP level"
    ),
    Text("Decision 6 option: the liberation restores nothing; the GM decides"),
    Text(
        "An ally's territory is friendly too: Russia frees Saxon Lausitz, and Saxony's level "
        "is restored"
    ),
    Text(
        "In Poland the captor may always place its marker: Saxony retakes Lietuva with its "
        "own garrison"
    ),
    Text("Taking a capital forces peace on its nation (10.2), for the GM to apply"),
    Text("Retaking one's own capital forces no peace"),
    Text("A transit territory of no nation: the captor places its marker; no RP level changes"),
    Text(
        "Russian territory held by Saxony's marker: Sweden captures it and places its own; "
        "the marker was not Russia's own, so no level falls"
    ),
    Text("Allies besiege together: the nation of the strongest besieger captures and controls"),
    # GNW-3 Battle before siege
    Text("The besieging side won: the siege goes ahead without the blocks that fought"),
    Text("The besieging side lost: every besieger retreats and there is no siege (Decision 5)"),
    Text("Decision 5 option: only the blocks that fought retreat; the others besiege"),
    Text("Won, but every besieger fought: no block is left to besiege"),
    Text("A besieger eliminated in the battle neither besieges nor retreats"),
    Text("Decision 5 option, lost, and every besieger fought: no siege"),
    Text(
        "A battle won in the territory without any besieger fighting: the siege goes ahead with all"
    ),
    # GNW-4 Forage
    Text("The seed's Kurland example: demand 5, supply 3 + 1, Sheremetev loses a step"),
    Text(
        "Without the owner's choice the tie goes to the lower id; exactly enough FP elsewhere "
        "costs nothing"
    ),
    Text(
        "Supply trains feed only regiments of the army's nationality: a Saxon train does not "
        "feed a Polish regiment"
    ),
    Text("Supply trains never feed armies"),
    Text(
        "Decision 2: after the first loss the owner's order is followed in a cycle, skipping "
        "blocks at strength 1"
    ),
    Text("The cycle starts after the block that took the first loss"),
    Text(
        "An order naming only some blocks: the first loss still falls on the strongest, the "
        "rest on the named one"
    ),
    Text("With no order (or Decision 2's other choice) every loss falls on the strongest block"),
    Text("Forage never takes a block below strength 1: losses that cannot be taken are ignored"),
    Text("Fleets and the blocks they carry need no forage"),
    Text("Decision 7: both sides in one territory each check against its full FP"),
    Text("Decision 7 option: the sides share the FP, the territory's controller first"),
    Text("The season ends: battle marks cleared, actions renewed"),
    Text(
        "Decision 7 option in a territory nobody controls: the sides share the FP in a fixed "
        "order, the Coalition first"
    ),
    Text("A block at strength 0 (eliminated in a battle, not yet taken off) eats nothing"),
    Text(
        "When the first loss falls on a block the order does not name, the order is followed "
        "from its start"
    ),
    Text(
        "Decision 7 option: when the controller's side eats all the FP and more, the other "
        "side has none"
    ),
    Text("Decision 7 option: a regiment eats 1 of the shared FP, a fleet in the port none"),
    # GNW-5 RP level
    Text(
        "The seed's example: Sweden takes Akershus and Christiansand, Denmark 16 → 8, Sweden "
        "unchanged"
    ),
    Text("Liberating a surrendered territory restores the 4"),
    Text(
        "A territory taken without a surrender (it was never marked surrendered) restores "
        "nothing when freed"
    ),
    Text("An RP level never goes below 0"),
    Text("A nation without an RP level of its own is unaffected"),
    Text("A level at exactly 4 falls to 0"),
    # GNW-6 Spending RP
    Text("A nation that gives no orders loses its RP; one with none has nothing to lose"),
    Text(
        "Blocks on the map first, then the pool: August II's step, then Schulenburg with what "
        "is left"
    ),
    Text("Unspent RP are lost, never carried over; with no draws ordered, nothing is drawn"),
    Text("A step costs 2 RP for an army, 1 for a regiment, 2 for a fleet"),
    Text("RP are never given to another nation: each nation spends its own"),
    Text("RP run out part-way: a later reinforcement that costs more than what is left is refused"),
    Text("A draw ordered with 0 steps each buys full strength; 2 each buys two"),
    # GNW-7 Reinforcing a block on the map
    Text(
        "The seed's example: Karl XII in Lietuva, 2 steps down, no friendly garrison: 2 × 2 "
        "RP × 2 = 8 RP"
    ),
    Text(
        "With a friendly garrison of 1 the price is normal; with a marker of 0 (none) it is doubled"
    ),
    Text(
        "An ally's garrison is friendly: a Russian army in Saxon Lausitz (its line runs to "
        "Russian-held Kurland) pays the normal price"
    ),
    Text("No line of communication, no reinforcement"),
    Text("A block in a battle, a block carried by a fleet, a fleet at sea: no reinforcement"),
    Text("A fleet in a port is reinforced"),
    Text("Up to full strength only, and at least one step"),
    Text("A pool block is drawn, not reinforced; exactly the RP left is enough"),
    # GNW-8 Reinforcing by action
    Text("The seed's example: August II at 1 in Lausitz, two actions, two steps, no RP"),
    Text("Every action left may be spent; one more is refused"),
    Text("Every restriction of GNW-7 holds: no line, in a battle, in the pool"),
    Text("Decision 8: without a friendly garrison a step still costs one action"),
    Text(
        "Decision 8 option: without a friendly garrison a step takes two actions; an odd "
        "number buys no whole step"
    ),
    Text("Not beyond full strength"),
    Text("A nation reinforces only its own blocks: another nation's, even an ally's, is ignored"),
    # GNW-9 Line of communication
    Text("The seed's example: the Swedish army in Russian-held Velikaya traces back to Livland"),
    Text("…but from Rzhev it cannot, while the Russians hold Velikaya"),
    Text("A territory the nation controls is a line by itself: its own, or one it captured"),
    Text("Through transit Kurland: from Lietuva to Livland"),
    Text("Enemy blocks close a territory to the line, whoever controls it"),
    Text(
        "Across the sea: from a friendly port, through a sea zone with a fleet of the nation, "
        "to its port"
    ),
    Text("No fleet of the nation in the sea zone: no line across it"),
    Text("An enemy fleet in the sea zone closes it, even with the nation's fleet there"),
    Text("Boarding needs a friendly port: none from Danish Christiansand"),
    Text("Landing needs a friendly port: not enemy-held Stockholm"),
    Text("A line is traced from a territory: not from a sea zone"),
    Text("A block in the pool has no line"),
    # GNW-10 Drawing new blocks
    Text(
        "The seed's example: Saxony with 12 RP draws Schulenburg (4 + 6), then Lubomirski, "
        "whom 2 RP cannot pay: spending ends"
    ),
    Text("The first step costs double: a regiment 2, a fleet 4; later steps the normal price"),
    Text("Only the steps the player wants: two each"),
    Text("Further steps as far as the RP go: 7 RP buy an army's first step and one more"),
    Text("A draw that costs exactly the RP left is paid: 4 RP, an army at strength 1"),
    Text(
        "Decision 3 option: the unaffordable block goes back and drawing goes on; a regiment "
        "is paid"
    ),
    Text("With less RP than any first step (2) nothing is drawn"),
    Text("With exactly 2 RP a regiment is drawn at strength 1"),
    Text("Never beyond full strength, whatever the player asks"),
    # GNW-11 Placement
    Text(
        "A new block goes to the player's first legal choice among its nation's deployment "
        "territories"
    ),
    Text("Never into a territory holding enemy blocks: the next legal place is taken"),
    Text(
        "An enemy garrison marker of 1 closes a territory; an enemy controller with no marker "
        "(0) does not"
    ),
    Text(
        "No legal place: the paid block returns to the pool, its RP lost, and spending goes "
        "on (Decision 9)"
    ),
    Text("Decision 9 option: an unplaceable block ends the spending"),
    Text("New fleets go only to friendly ports allowed to their nation"),
    Text("A red-dot block goes only to its own places"),
    Text("Outside its nation's deployment territories, and into enemy blocks, a block may not go"),
    Text("A red-dot block or a fleet with nowhere listed: “nowhere”"),
    Text("A fleet port without a port is no place for a fleet"),
    Text(
        "In the recruitment phase: the first legal place of the player's list, a new fleet "
        "from its list of ports"
    ),
    Text(
        "In the recruitment phase: no legal place in the player's list, the first legal "
        "deployment territory"
    ),
    # GNW-12 Event RP
    Text(
        "The seed's example: an event gives Sweden 8 RP for the recruitment phase; its RP "
        "level stays 20"
    ),
    Text("An event that takes RP lowers this phase's RP only"),
    Text("A loss beyond the level leaves 0 RP, not fewer"),
    Text("Event RP of every nation are cleared, whether it gave orders or not"),
    Text("A nation with no RP level of its own spends only event RP"),
    # GNW-13 Fleet movement
    Text(
        "Leaving a port is free; entering a port counts one zone: Stockholm to Christiansand in 6"
    ),
    Text(
        "From a sea zone, the seventh zone is one too many: the move is refused and costs nothing"
    ),
    Text("The destinations offered stop at 6 zones: not the seventh"),
    Text("The Russian galley fleet moves 3 zones: offered no farther, and refused a fourth"),
    Text(
        "A fleet stops when it enters a sea zone holding an enemy fleet; the zone is an end, "
        "never passed through"
    ),
    Text("Never into a territory without a port, nor a port the enemy holds, nor overland"),
    Text(
        "Entering a port ends the move; the next area must be adjacent; an enemy block in a "
        "port closes it"
    ),
    Text("A move costs one action; the blocks the fleet carries go with it"),
    Text("Only a fleet on the map moves: not an army, not a pool fleet"),
)

# The values its cases give that the page words (campaign/views/pages.py value_html),
# beside the names of the map: {value: its words}, or {(key, value): its words} where
# the value means another thing under that key; None for a key of the data that names
# nothing (shown as code).
VALUES = {
    **KIND_NAMES,
    "coalition": Text("Coalition"),
    "none": Text("none"),
    "polish": Text("Polish"),
    "pool": Text("the pool"),
    "sea": Text("sea zone"),
    "atlantis": None,
}
# Values that are sentences (a refusal, a check's reason), each its own msgid.
PHRASES = (
    Text("Lausitz holds Sweden's garrison"),
    Text("Rzhev holds enemy blocks"),
    Text("Lietuva has no port"),
    Text("Menshikov (red dot) is placed only in St Petersburg"),
    Text("new Russia blocks are placed only in Velikaya, Rzhev"),
    Text("new Saxony-Poland fleets are placed only in nowhere"),
    Text("new Sweden fleets are placed only in Stockholm, Lietuva"),
    Text("there is no territory “atlantis”"),
)
