"""A small Pax Baltica map for the pure rules tests (no database).

Land: Stockholm – (sea) – Livland – Velikaya – Rzhev; Livland – Kurland – Lietuva –
Lausitz; Akershus – Christiansand; Copenhagen. Sea zones: Gulf of Bothnia – Central
Baltic – Southern Baltic – Skagerrak, with ports Stockholm (Bothnia, Central),
Livland and Kurland (Central), Copenhagen (Southern, Skagerrak), Akershus and
Christiansand (Skagerrak).
"""

from __future__ import annotations

from rules.pax_baltica.state import (
    ARMY,
    COALITION,
    FLEET,
    REGIMENT,
    SEA,
    SWEDEN_SIDE,
    Block,
    Nation,
    Territory,
    World,
)

LINKS = (
    ("livland", "velikaya"),
    ("velikaya", "rzhev"),
    ("livland", "kurland"),
    ("kurland", "lietuva"),
    ("lietuva", "lausitz"),
    ("akershus", "christiansand"),
    ("gulf_of_bothnia", "central_baltic"),
    ("central_baltic", "southern_baltic"),
    ("southern_baltic", "skagerrak"),
    ("stockholm", "gulf_of_bothnia"),
    ("stockholm", "central_baltic"),
    ("livland", "central_baltic"),
    ("kurland", "central_baltic"),
    ("copenhagen", "southern_baltic"),
    ("copenhagen", "skagerrak"),
    ("akershus", "skagerrak"),
    ("christiansand", "skagerrak"),
)


def territories() -> list[Territory]:
    def land(key, nation, **kw):
        name = kw.pop("name", key.replace("_", " ").title())
        kw.setdefault("controller", nation)
        return Territory(key, name, nation=nation, **kw)

    return [
        land("stockholm", "sweden", forage_points=3, port=True, capital=True, garrison=3),
        land("livland", "sweden", forage_points=2, port=True, garrison=2),
        land("kurland", None, controller=None, forage_points=3, port=True, transit=True),
        land("velikaya", "russia", forage_points=2, garrison=1),
        land("rzhev", "russia", forage_points=2, garrison=1),
        land("lietuva", "saxony", forage_points=2, in_poland=True, garrison=1),
        land("lausitz", "saxony", forage_points=3, garrison=2),
        land("akershus", "denmark", forage_points=2, port=True, garrison=2),
        land("christiansand", "denmark", forage_points=1, port=True, garrison=1),
        land("copenhagen", "denmark", forage_points=3, port=True, capital=True, garrison=3),
        Territory("gulf_of_bothnia", "Gulf of Bothnia", kind=SEA),
        Territory("central_baltic", "Central Baltic", kind=SEA),
        Territory("southern_baltic", "Southern Baltic", kind=SEA),
        Territory("skagerrak", "Skagerrak", kind=SEA),
    ]


def blocks() -> list[Block]:
    return [
        Block(1, "sweden", ARMY, "Karl XII", 2, 4, "B3", 1, "lietuva"),
        Block(2, "russia", ARMY, "Pyotr I", 4, 4, "C2", 1, "kurland"),
        Block(3, "russia", ARMY, "Sheremetev", 4, 4, "C2", 1, "kurland"),
        Block(4, "russia", REGIMENT, "Woronjetski", 3, 3, "C1", 0, "kurland"),
        Block(5, "saxony", ARMY, "August II", 1, 4, "C2", 1, "lausitz"),
        Block(6, "sweden", FLEET, "Swedish fleet", 3, 4, "B2", 0, "stockholm"),
        Block(7, "denmark", FLEET, "Danish fleet", 3, 4, "B2", 0, "copenhagen"),
        Block(8, "russia", FLEET, "Galley fleet", 2, 3, "C1", 0, "central_baltic", galley=True),
        Block(9, "saxony", ARMY, "Schulenburg", 4, 4, "C2", 1, None),
        Block(10, "saxony", ARMY, "Lubomirski", 4, 4, "C2", 0, None),
        Block(11, "sweden", REGIMENT, "Dalregementet", 2, 3, "B2", 0, None),
    ]


def build_world(**options) -> World:
    """Sweden (20 RP) against Russia (12), Saxony-Poland (12) and Denmark (16)."""
    nations = {
        "sweden": Nation(
            "sweden",
            "Sweden",
            SWEDEN_SIDE,
            20,
            deployment=("stockholm", "livland"),
            fleet_ports=("stockholm",),
        ),
        "russia": Nation("russia", "Russia", COALITION, 12, deployment=("velikaya", "rzhev")),
        "saxony": Nation(
            "saxony", "Saxony-Poland", COALITION, 12, deployment=("lausitz", "lietuva")
        ),
        "denmark": Nation(
            "denmark",
            "Denmark",
            COALITION,
            16,
            deployment=("copenhagen", "akershus"),
            fleet_ports=("copenhagen",),
        ),
    }
    adjacency: dict[str, set[str]] = {}
    for a, b in LINKS:
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    return World(
        nations=nations,
        territories={t.key: t for t in territories()},
        adjacency=adjacency,
        blocks={b.id: b for b in blocks()},
        actions={SWEDEN_SIDE: 3, COALITION: 3},
        options=dict(options),
    )
