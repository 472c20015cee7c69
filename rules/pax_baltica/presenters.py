"""What the campaign pages show of the Pax Baltica state (the ruleset's presenter).

Pure functions over the World. Blocks are wooden blocks: a player sees the other
side's blocks only as a nation-coloured block in a territory (or a count in a pool),
never their name or strength. ``viewer`` is the set of powers whose blocks the reader
sees in full (Ruleset.viewer: their own side), or None for the GM and observers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine import Presenter, Reading
from rules.marks import BESIEGED, AreaMarks, Badge, OrderMark, gm_move_marks
from rules.pax_baltica import gm_orders, supply
from rules.pax_baltica import procedures as gnw
from rules.pax_baltica.state import FLEET, KIND_NAMES, SEA, SIDES, Block, World
from rules.platform import localized
from rules.refusals import reason_for

NO_VALUE = "—"


def sees(world: World, power_key: str) -> frozenset[str]:
    """A nation's player sees the blocks of its whole side."""
    return frozenset(world.side_powers(world.side_of(power_key)))


def visible(block: Block, viewer: frozenset[str] | None) -> bool:
    return viewer is None or block.nation in viewer


BLOCK_SPACING = 14  # between two blocks in the row under a territory on the diagram


@dataclass(frozen=True)
class BlockRow:
    id: int
    name: str
    nation: str
    kind: str
    strength: int
    max_strength: int
    rating: str  # the game's notation, as printed on the block ("B2")
    rating_note: str  # what it says, in words
    supply_trains: int
    where: str
    reinforceable: bool  # by RP or action, now (GNW-7)
    why_not: str  # what stops it, "" when it can


@dataclass(frozen=True)
class NationRow:
    key: str
    name: str
    side: str
    rp_level: str
    event_rp: int
    rp_available: int
    pool: str  # the blocks in its pool (names for its side, a count for the other)
    forced_peace: bool


def block_label(world: World, block: Block, viewer: frozenset[str] | None) -> str:
    nation = world.nations[block.nation].name
    if not visible(block, viewer):
        return _("a block of %(nation)s") % {"nation": nation}
    return _("%(block)s (%(nation)s %(kind)s, %(strength)s/%(max_strength)s)") % {
        "block": block.name,
        "nation": nation,
        "kind": localized(KIND_NAMES[block.kind]),
        "strength": block.strength,
        "max_strength": block.max_strength,
    }


def area_marks(world: World, viewer: frozenset[str] | None) -> dict[str, AreaMarks]:
    """Per area: the garrison marker and each block (blank for the other side), as
    badges of kind "garrison", "block" or "hidden-block" (nation-coloured, in a row)."""
    marks = {}
    for key, area in world.territories.items():
        blocks = sorted(world.blocks_in(key), key=lambda b: (b.nation, b.id))
        badges = (
            [
                Badge(
                    "garrison",
                    area.garrison,
                    _("garrison %(strength)s") % {"strength": area.garrison},
                )
            ]
            if area.garrison
            else []
        )
        if any(block.besieging for block in blocks):  # a declared siege is public
            badges.append(Badge(BESIEGED, 0, _("Besieged")))
        start = -(len(blocks) - 1) * BLOCK_SPACING / 2
        for index, block in enumerate(blocks):
            shown = visible(block, viewer)
            badges.append(
                Badge(
                    "block" if shown else "hidden-block",
                    block.strength if shown else 0,
                    block_label(world, block, viewer),
                    world.nations[block.nation].color,
                    start + index * BLOCK_SPACING,
                )
            )
        marks[key] = AreaMarks(
            badges=tuple(badges),
            cells=(
                NO_VALUE if area.kind == SEA else str(area.forage_points),
                str(area.garrison) if area.garrison else NO_VALUE,
                "; ".join(block_label(world, b, viewer) for b in blocks) or NO_VALUE,
            ),
            remarks=remarks(area),
        )
    return marks


def area_refs(world: World, key: str) -> tuple[frozenset[str], frozenset[int]]:
    """What an order may name the area ``key`` by: its key, and the blocks in it."""
    return frozenset({key}), frozenset(b.id for b in world.blocks.values() if b.location == key)


def remarks(area) -> tuple[str, ...]:
    words = []
    if area.capital:
        words.append(_("capital"))
    if area.port:
        words.append(_("port"))
    if area.transit:
        words.append(_("transit"))
    if area.in_poland:
        words.append(_("in Poland"))
    if area.surrendered:
        words.append(_("surrendered"))
    if area.battle_winner:
        words.append(_("battle won by %(side)s") % {"side": localized(SIDES[area.battle_winner])})
    return tuple(words)


def panels(world: World, viewer: frozenset[str] | None) -> dict:
    """The Nations and Sides panels, and the blocks the viewer may see in full."""
    return {
        "nations": nation_rows(world, viewer),
        "sides": [
            (localized(SIDES[side]), left, world.season_actions.get(side, 0))
            for side, left in world.actions.items()
        ],
        "blocks": block_rows(world, viewer),
    }


def nation_rows(world: World, viewer: frozenset[str] | None) -> list[NationRow]:
    rows = []
    for nation in world.nations.values():
        pool = world.pool(nation.key)
        if viewer is None or nation.key in viewer:
            listed = ", ".join(f"{b.name} ({localized(KIND_NAMES[b.kind])})" for b in pool) or _(
                "empty"
            )
        else:
            listed = ngettext("%(count)s block", "%(count)s blocks", len(pool)) % {
                "count": len(pool)
            }
        rows.append(
            NationRow(
                key=nation.key,
                name=nation.name,
                side=localized(SIDES[nation.side]),
                rp_level=NO_VALUE if nation.rp_level is None else str(nation.rp_level),
                event_rp=nation.event_rp,
                rp_available=gnw.rp_available(nation),
                pool=listed,
                forced_peace=nation.forced_peace,
            )
        )
    return rows


def block_rows(world: World, viewer: frozenset[str] | None) -> list[BlockRow]:
    """The blocks on the map the viewer sees in full, by nation and name."""
    rows = []
    for block in sorted(world.blocks.values(), key=lambda b: (b.nation, b.name)):
        if block.in_pool or not visible(block, viewer):
            continue
        why_not = reinforce_obstacle(world, block)
        rows.append(
            BlockRow(
                id=block.id,
                name=block.name,
                nation=nation_label(world, block),
                kind=localized(KIND_NAMES[block.kind]),
                strength=block.strength,
                max_strength=block.max_strength,
                rating=block.rating,
                rating_note=rating_note(block),
                supply_trains=block.supply_trains,
                where=_("%(territory)s (carried)") % {"territory": world.territories[block.at].name}
                if block.carried_by
                else world.territories[block.at].name,
                reinforceable=not why_not,
                why_not=why_not,
            )
        )
    return rows


def nation_label(world: World, block: Block) -> str:
    """The block's nation in the reader's language, and its nationality when it is not
    the nation's own ("Saxony-Poland (Polish)")."""
    nation = str(world.nations[block.nation].name)
    return f"{nation} ({block.nationality})" if block.nationality else nation


def rating_note(block: Block) -> str:
    """A block's combat rating in words: when it fires, and which faces hit (GNW-1)."""
    if block.firepower > 1:
        note = _("fires in the order of its letter (A first), hits on %(firepower)s or less")
    else:
        note = _("fires in the order of its letter (A first), hits on %(firepower)s")
    return note % {"firepower": block.firepower}


def reinforce_obstacle(world: World, block: Block) -> str:
    """What stops a block on the map gaining a step now (GNW-7), "" when nothing."""
    if block.strength >= block.max_strength:
        return _("at full strength")
    has_line = supply.line_of_communication(world, block.nation, block.location) is not None
    refusal = reason_for(gnw.check_reinforcement, world, block, 1, has_line)
    return "" if refusal is None else localized(refusal)


@dataclass(frozen=True)
class LineAnswer:
    """The answer to "why can't I reinforce this block?": the reason, and the areas of
    the line of communication (or of the block alone when there is none)."""

    block: str
    text: str
    obstacle: str
    path: tuple[str, ...]
    path_names: tuple[str, ...]


def line_answer(world: World, block: Block) -> LineAnswer:
    path = supply.line_of_communication(world, block.nation, block.location) or [block.at]
    return LineAnswer(
        block=block.name,
        text=localized(supply.line_explanation(world, block.nation, block.location)),
        obstacle=reinforce_obstacle(world, block),
        path=tuple(path),
        path_names=tuple(world.territories[key].name for key in path),
    )


def answer_line(world: World, viewer: frozenset[str] | None, block_id: int) -> dict:
    """Why a block can or cannot be reinforced, with its line of communication; only
    for a block on the map that the viewer sees in full (LookupError otherwise)."""
    block = world.blocks.get(block_id)
    if block is None or block.in_pool or not visible(block, viewer):
        raise LookupError(block_id)
    return {"answer": line_answer(world, block), "highlight": line_answer(world, block).path}


QUESTIONS = {"line": answer_line}


# -- orders on the map --------------------------------------------------------------


def order_marks(
    world: World, orders: Mapping[str, dict], viewer: frozenset[str] | None
) -> list[OrderMark]:
    """The orders the reader may read (payloads by nation key) as arrows and markers,
    nation by nation in the World's order. Only the orders of nations whose blocks the
    viewer sees in full are drawn, and each only with that nation's own blocks on the
    map: no mark names or places a block hidden from the viewer. A territory or block
    no longer there draws nothing."""
    marks: list[OrderMark] = []
    for nation in world.nations:
        payload = orders.get(nation)
        if payload and (viewer is None or nation in viewer):
            marks += nation_order_marks(world, nation, payload)
    return marks


def nation_order_marks(world: World, nation: str, payload: Mapping) -> list[OrderMark]:
    """Whatever phase the payload is for: reinforcements (GNW-7, GNW-8), placements of
    drawn blocks (GNW-11), fleet moves (GNW-13), sieges (GNW-1), and the land moves among
    its lines for the GM. Forage loss orders (GNW-4) name blocks, not territories: none."""
    return [
        *reinforcement_marks(world, nation, payload.get("reinforce") or ()),
        *placement_marks(world, nation, payload),
        *fleet_marks(world, nation, payload.get("fleet_moves") or ()),
        *siege_marks(world, nation, payload.get("sieges") or ()),
        *gm_move_marks(
            nation, payload, gm_orders.pieces(world, nation), gm_orders.places(world), localized
        ),
    ]


def order_text(world: World, nation: str, payload: Mapping) -> list[str]:
    """The order ``payload`` of ``nation``, whatever its phase, as sentences in the active
    language (its lines for the GM aside: rules/gm_orders.py says them). For the GM's
    reading: it names the nation's blocks."""
    marks = [
        *placement_marks(world, nation, payload),
        *fleet_marks(world, nation, payload.get("fleet_moves") or ()),
        *siege_marks(world, nation, payload.get("sieges") or ()),
    ]
    return [
        *reinforcement_lines(world, nation, payload.get("reinforce") or ()),
        *draw_lines(payload),
        *(mark.label for mark in marks),
        *loss_order_lines(world, nation, payload.get("loss_order") or ()),
    ]


def reinforcement_lines(world: World, nation: str, items) -> list[str]:
    """GNW-7 (steps bought with RP) and GNW-8 (steps added by actions)."""
    lines = []
    for item in items:
        block = own_block(world, nation, item.get("block"))
        if block is None:
            continue
        if "actions" in item:
            text = ngettext(
                "%(block)s: %(count)s action to add steps (GNW-8)",
                "%(block)s: %(count)s actions to add steps (GNW-8)",
                item["actions"],
            ) % {"block": block.name, "count": item["actions"]}
        else:
            text = ngettext(
                "%(block)s: %(count)s step bought with RP (GNW-7)",
                "%(block)s: %(count)s steps bought with RP (GNW-7)",
                item.get("steps", 0),
            ) % {"block": block.name, "count": item.get("steps", 0)}
        lines.append(text)
    return lines


def draw_lines(payload: Mapping) -> list[str]:
    """GNW-10: the blocks drawn from the pool and the steps bought for each."""
    draws = payload.get("draws") or 0
    if not draws:
        return []
    steps = payload.get("steps_each")
    if isinstance(steps, int) and 1 <= steps <= 4:
        each = ngettext("%(steps)s step each", "%(steps)s steps each", steps) % {"steps": steps}
    else:
        each = _("as many steps each as the RP allow, up to full strength")
    return [
        ngettext(
            "Draw %(count)s block from the pool, %(each)s (GNW-10)",
            "Draw %(count)s blocks from the pool, %(each)s (GNW-10)",
            draws,
        )
        % {"count": draws, "each": each}
    ]


def loss_order_lines(world: World, nation: str, block_ids) -> list[str]:
    """GNW-4: the order in which the nation's blocks take forage losses after the first."""
    blocks = [own_block(world, nation, block_id) for block_id in block_ids]
    names = ", ".join(block.name for block in blocks if block is not None)
    if not names:
        return []
    return [
        _("Forage losses after the first, in this order: %(blocks)s (GNW-4)") % {"blocks": names}
    ]


def own_block(world: World, nation: str, block_id) -> Block | None:
    """The nation's block ``block_id`` on the map, else None."""
    block = world.blocks.get(block_id)
    if block is None or block.location not in world.territories or block.nation != nation:
        return None
    return block


def reinforcement_marks(world: World, nation: str, items) -> list[OrderMark]:
    """GNW-7 (by RP) and GNW-8 (by action): a marker on each block to reinforce."""
    blocks = [own_block(world, nation, item.get("block")) for item in items]
    return [
        OrderMark(
            "reinforce",
            nation,
            block.at,
            label=_("Reinforcing %(block)s") % {"block": block.name},
        )
        for block in blocks
        if block is not None
    ]


def placement_marks(world: World, nation: str, payload: Mapping) -> list[OrderMark]:
    """GNW-11: with pool draws ordered, a marker on each territory the nation chose to
    place its drawn blocks (and fleets) in, by rank."""
    if not payload.get("draws"):
        return []
    labels = {
        "places": _("%(nation)s places new blocks in %(territory)s (choice %(rank)s)"),
        "fleet_places": _("%(nation)s places new fleets in %(territory)s (choice %(rank)s)"),
    }
    return [
        OrderMark(
            "place",
            nation,
            key,
            label=label
            % {
                "nation": world.nations[nation].name,
                "territory": world.territories[key].name,
                "rank": rank,
            },
        )
        for field, label in labels.items()
        for rank, key in enumerate(payload.get(field) or (), start=1)
        if key in world.territories
    ]


def fleet_marks(world: World, nation: str, moves) -> list[OrderMark]:
    """GNW-13: an arrow along each fleet's path, from where it stands to where it ends."""
    marks = []
    for move in moves:
        fleet, path = own_block(world, nation, move.get("fleet")), move.get("path") or ()
        if fleet is None or fleet.kind != FLEET or not path or fleet.location == path[-1]:
            continue
        if all(key in world.territories for key in path):
            names = {
                "fleet": fleet.name,
                "start": world.territories[fleet.at].name,
                "end": world.territories[path[-1]].name,
            }
            label = _("%(fleet)s moves from %(start)s to %(end)s") % names
            marks.append(
                OrderMark("fleet", nation, path[-1], fleet.location, tuple(path[:-1]), label)
            )
    return marks


def siege_marks(world: World, nation: str, sieges) -> list[OrderMark]:
    """GNW-1: a marker on each territory the nation besieges, naming its blocks there."""
    marks = []
    for siege in sieges:
        key = siege.get("territory")
        blocks = [own_block(world, nation, i) for i in siege.get("blocks") or ()]
        names = ", ".join(block.name for block in blocks if block is not None)
        if key in world.territories and names:
            label = _("Besiege %(territory)s with %(blocks)s") % {
                "territory": world.territories[key].name,
                "blocks": names,
            }
            marks.append(OrderMark("siege", nation, key, label=label))
    return marks


def timeline(state: dict, powers) -> list[Reading]:
    """Per nation, its RP level (public: every seat sees the Nations panel)."""
    levels = {n["power"]: n["rp_level"] for n in state.get("pb_nations", [])}
    return [(p.key, p.display_name, p.color, levels[p.key]) for p in powers if p.key in levels]


PRESENTER: Presenter[World] = Presenter(
    columns=(gettext_lazy("Forage points"), gettext_lazy("Garrison"), gettext_lazy("Blocks")),
    map_key=gettext_lazy(
        "On the map: a square per block in its nation's colour — your side's with its "
        "strength, the enemy's blank; the dark number is the garrison marker's strength."
    ),
    area_marks=area_marks,
    panels=panels,
    area_refs=area_refs,
    map_patterns={BESIEGED: "dots"},  # a drawn map dots a territory under siege
    map_styles=("courier/pax_baltica/map.css",),  # its pieces' styles (static/)
    order_marks=order_marks,
    order_text=order_text,
    timeline=timeline,
    timeline_title=gettext_lazy("RP levels"),
    timeline_caption=gettext_lazy(
        "One line per nation: its RP level (GNW-5: 4 less for each of its territories that "
        "surrendered), as each season opened and now."
    ),
)
