"""A small Virgin Queen map for the pure rules tests (no database).

France (zone "france"): Paris (French capital), Orléans and Bordeaux are Catholic,
French and fortified; Lyon (fortified), Dijon, Clermont, Nantes and Rouen are Protestant
and French; La Rochelle is the Huguenots' fortified home space and capital. Links:
Paris – Orléans, Dijon, Rouen, Brussels; Orléans – Lyon, Bordeaux; Lyon – Dijon,
Clermont; La Rochelle – Nantes, Bordeaux. Ports: Bordeaux, La Rochelle and Nantes on the
Bay of Biscay, Rouen on the Channel.

The Netherlands (zone "netherlands"): Brussels is Catholic, Spanish and fortified;
Antwerp (fortified port), Amsterdam (fortified port, Dutch home) and Utrecht are
Protestant and Spanish. Links: Brussels – Antwerp, Utrecht; Antwerp – Amsterdam;
Amsterdam – Utrecht. London (zone "england") is English and Protestant.

Units: 2 French regulars in Paris; 1 French regular and 2 French mercenaries in Lyon
(the seed's example); 2 Huguenot regulars in La Rochelle; 3 Spanish regulars in
Brussels; 1 Spanish regular and 1 Spanish naval unit in Antwerp. Leaders: Coligny in La
Rochelle, Guise in Lyon, Alba in Brussels, William of Orange off the map and able to
enter the Netherlands. The Dutch have no capital; counter mix: 6 Huguenot, 1 Dutch.
"""

from __future__ import annotations

from rules.virgin_queen.state import (
    CATHOLIC,
    MERCENARY,
    NAVAL,
    PROTESTANT,
    REGULAR,
    Leader,
    Markers,
    Space,
    Units,
    World,
)

POWERS = ("ottoman", "spain", "england", "france", "hre", "protestant")
LINKS = (
    ("paris", "orleans"),
    ("paris", "dijon"),
    ("paris", "rouen"),
    ("paris", "brussels"),
    ("orleans", "lyon"),
    ("orleans", "bordeaux"),
    ("lyon", "dijon"),
    ("lyon", "clermont"),
    ("la_rochelle", "nantes"),
    ("la_rochelle", "bordeaux"),
    ("brussels", "antwerp"),
    ("brussels", "utrecht"),
    ("antwerp", "amsterdam"),
    ("amsterdam", "utrecht"),
)
SEA_ZONES = {
    "bordeaux": {"biscay"},
    "la_rochelle": {"biscay"},
    "nantes": {"biscay"},
    "rouen": {"channel"},
    "antwerp": {"north_sea"},
    "amsterdam": {"north_sea"},
}


def spaces() -> list[Space]:
    def space(key, zone, religion, controller, name=None, **kw):
        name = name or key.replace("_", " ").title()
        return Space(key, name, zone, religion, controller, home_power=controller, **kw)

    france, spain = "france", "spain"
    return [
        space("paris", france, CATHOLIC, france, fortified=True, key_space=True, capital_of=france),
        space("orleans", france, CATHOLIC, france, "Orléans", fortified=True),
        space("bordeaux", france, CATHOLIC, france, fortified=True, port=True),
        space("lyon", france, PROTESTANT, france, fortified=True),
        space("dijon", france, PROTESTANT, france),
        space("clermont", france, PROTESTANT, france),
        space("nantes", france, PROTESTANT, france, port=True),
        space("rouen", france, PROTESTANT, france, port=True),
        space(
            "la_rochelle",
            france,
            PROTESTANT,
            "protestant",
            fortified=True,
            port=True,
            protestant_home=True,
        ),
        space("brussels", "netherlands", CATHOLIC, spain, fortified=True),
        space("antwerp", "netherlands", PROTESTANT, spain, fortified=True, port=True),
        space(
            "amsterdam",
            "netherlands",
            PROTESTANT,
            spain,
            fortified=True,
            port=True,
            protestant_home=True,
        ),
        space("utrecht", "netherlands", PROTESTANT, spain),
        space("london", "england", PROTESTANT, "england", fortified=True, port=True),
    ]


def units() -> list[Units]:
    return [
        Units(1, "france", REGULAR, "paris", 2),
        Units(2, "france", REGULAR, "lyon", 1),
        Units(3, "france", MERCENARY, "lyon", 2),
        Units(4, "protestant", REGULAR, "la_rochelle", 2),
        Units(5, "spain", REGULAR, "brussels", 3),
        Units(6, "spain", REGULAR, "antwerp", 1),
        Units(7, "spain", NAVAL, "antwerp", 1),
    ]


def leaders() -> list[Leader]:
    return [
        Leader(1, "Coligny", "protestant", "military", "la_rochelle", zone="france"),
        Leader(2, "Guise", "france", "military", "lyon"),
        Leader(3, "Alba", "spain", "military", "brussels"),
        Leader(4, "William of Orange", "protestant", "military", None, "netherlands", True),
    ]


def build_world(**options) -> World:
    adjacency: dict[str, set[str]] = {s.key: set() for s in spaces()}
    for a, b in LINKS:
        adjacency[a].add(b)
        adjacency[b].add(a)
    return World(
        spaces={s.key: s for s in spaces()},
        adjacency=adjacency,
        sea_zones={key: set(seas) for key, seas in SEA_ZONES.items()},
        units={u.id: u for u in units()},
        leaders={leader.id: leader for leader in leaders()},
        capitals={"france": "la_rochelle", "netherlands": None},
        counter_mix={"france": 6, "netherlands": 1},
        markers={power: Markers() for power in POWERS},
        options=dict(options),
    )
