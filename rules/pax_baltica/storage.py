"""Where Pax Baltica keeps its state: its tables (rules/pax_baltica/models.py) as the
archive and the snapshots read and write them (campaign/state/storage.py).

In an archive's ``state`` (campaign/records/archive.py)::

      "pb_nations": [{power, side, rp_level, event_rp, deployment, fleet_ports,
                      forced_peace}],
      "pb_territories": [{area, forage_points, port, transit, in_poland, garrison,
                          surrendered, battle_winner}],
      "pb_sides": [{key, sort, actions, actions_per_season}],
      "blocks": [{power, kind, name, strength, max_strength, rating, supply_trains,
                  location, carried_by, red_dot, places, galley, in_battle, besieging,
                  nationality}],
"""

from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from rules.platform import GM_LINE_PIECE, Area, Storage, Table

STORAGE = Storage(
    tables=(
        Table("pb_nations", PbNation, "power__campaign"),
        Table("pb_territories", PbTerritory, "area__campaign"),
        Table("pb_sides", PbSide, "campaign"),
        # a block is named by its name, in payloads and in the block carrying it
        Table("blocks", Block, "campaign", ref=("name",), names="name", noun="block"),
    ),
    piece_ids={
        "orders": (
            (("reinforce", ..., "block"), "blocks"),
            (("fleet_moves", ..., "fleet"), "blocks"),
            (("sieges", ..., "blocks", ...), "blocks"),
            (("loss_order", ...), "blocks"),
            (GM_LINE_PIECE, "blocks"),
        ),
    },
    key_fields={
        (PbNation, "deployment"): Area,
        (PbNation, "fleet_ports"): Area,
        (Block, "places"): Area,
    },
)
