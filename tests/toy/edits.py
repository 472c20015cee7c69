"""What the GM edits by hand, pure: a beacon (lit by a lord, or not) and a lord's reserve.
Each changes the World and returns the Change the log shows; a reserve's is read in full
by its lord alone. A reference to nothing, or a value the rules cannot hold, raises
EditError and changes nothing."""

from __future__ import annotations

from rules.log import Change
from rules.refusals import EditError, whole
from rules.text import Plural, Text
from tests.toy.state import MOST_WOOD, World

WOOD_RANGE = (0, MOST_WOOD)


def _lord(world: World, key: str | None) -> str:
    if key not in world.powers:
        raise EditError(Text("There is no lord “%(key)s”.", key=key))
    return key


def edit_beacon(world: World, *, beacon: str, lit_by: str | None) -> Change:
    """The beacon of the area ``beacon``: lit by a lord, or unlit (None)."""
    if beacon not in world.lit:
        raise EditError(Text("There is no area “%(key)s”.", key=beacon))
    if lit_by is not None:
        _lord(world, lit_by)
    world.lit[beacon] = lit_by
    area = world.names[beacon]
    if lit_by is None:
        return Change(Text("the beacon in %(area)s is unlit", area=area))
    return Change(
        Text("the beacon in %(area)s is lit by %(lord)s", area=area, lord=world.powers[lit_by])
    )


def edit_lord(world: World, *, lord: str, wood: int) -> Change:
    """A lord's reserve: its lord reads the new count, the others only that it changed."""
    _lord(world, lord)
    whole(wood, WOOD_RANGE, Text("The reserve"))
    world.wood[lord] = wood
    name = world.powers[lord]
    text = Plural(
        "%(lord)s's reserve: %(count)s wood",
        "%(lord)s's reserve: %(count)s wood",
        count=wood,
        lord=name,
    )
    return Change(text, (lord,), Text("corrects the reserve of %(lord)s", lord=name))


EDITS = {"beacon": edit_beacon, "lord": edit_lord}
