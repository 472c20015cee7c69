"""The words of Beacons' scenario that people read (its name and description, its lords'
and areas' names), as a shipped ruleset lists them for the catalogs; the pages show them
through rules.translation.Name."""

from rules.text import Text

WORDS = (
    Text("Beacons of the Marches"),
    Text(
        "Three lords light beacons along a line of hills, raid each other's fires and keep "
        "their wood to themselves."
    ),
    # the lords
    Text("North"),
    Text("South"),
    Text("West"),
    # the areas
    Text("Crag"),
    Text("Fell"),
    Text("Moor"),
    Text("Tor"),
    Text("Dale"),
    Text("Cairn"),
)
