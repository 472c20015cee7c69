"""The words of Beacons' adjudication corpus (tests/toy/corpus/) that people read on the
rules page: the corpus map's description and every case's title, in procedure order
(tests/corpus/test_words.py checks each is listed here), and the values its cases give
that the page words."""

from rules.text import Text

WORDS = (
    Text(
        "Three lords: North (its beacon lit in Crag, 1 wood), South (Tor, 2 wood) and West "
        "(Dale, 1 wood). Crag – Fell – Moor – Tor, Dale – Fell, Crag – Cairn – Tor; Fell, "
        "Moor and Cairn unlit."
    ),
    # TOY-1
    Text("A 4 lights the beacon"),
    Text("A 3 does not catch"),
    Text("One wood fed makes a 3 catch, and is spent"),
    Text(
        "Two wood ordered, one in the reserve: it feeds what it has, spent though the fire "
        "does not catch"
    ),
    Text("An area not next to a beacon of the lord's cannot be named"),
    Text("North lights Cairn first: South's order for Cairn, lit by then, is refused"),
    Text("Three wood fed is more than a fire takes: refused, nothing spent"),
    # TOY-2
    Text("A 3 fails: nothing is asked"),
    Text("A 4 reaches the beacon: North burns 1 wood and keeps it"),
    Text("A 6 costs 3 wood: North, with 1, cannot keep the beacon"),
    Text("North lets it go: the beacon is doused and its wood kept"),
    Text("Two raids on West's Cairn: the first douses it, the second does nothing"),
    Text("Only the defender decides: South's answer for North's beacon is refused"),
    Text("A defender without a player keeps its beacon when its reserve pays: South burns 2"),
    Text("An unlit area is no beacon to raid"),
    # TOY-3
    Text("One beacon lit: North gathers 1 wood"),
    Text("Two beacons lit: two wood"),
    Text("Two beacons lit, 4 wood: one more fills the reserve"),
    Text("A full reserve has nothing to gather"),
    Text("No beacon lit: nothing to gather"),
    Text("Wood gathered pays a defence the same night: North gathers 2, then keeps Fell for 2"),
)

# The values its cases give that the page words (campaign/views/pages.py value_html),
# beside the names of the map: {(key, value): its words}.
VALUES = {
    ("action", "gather"): Text("gather wood"),
    ("action", "raid"): Text("raid"),
}
