"""Where Virgin Queen keeps its state: its tables (rules/virgin_queen/models.py) as the
archive and the snapshots read and write them (campaign/state/storage.py).

In an archive's ``state`` (campaign/records/archive.py)::

      "vq_powers": [{power, catholic, informant, assassination_used, cipher_key}],
      "vq_zones": [{key, name, capital, capital_on_turn_track, regulars_available}],
      "vq_spaces": [{area, zone, religion, unrest, fortified, key_space, port,
                     protestant_home, besieged, capital_of}],
      "vq_units": [{power, kind, area, count}],
      "vq_leaders": [{name, power, kind, area, zone, can_enter}],
      "vq_pending": [{phase, kind, stage, waiting_for, data, since}]   # 0 or 1 row
"""

from rules.platform import GM_LINE_PIECE, Storage, Table
from rules.virgin_queen.models import VqLeader, VqPending, VqPower, VqSpace, VqUnits, VqZone


def _queue_item(item: list) -> str | None:
    """A displacement queue item: ["unit" | "leader", id, origin]."""
    return {"unit": "vq_units", "leader": "vq_leaders"}.get(item[0]) if item else None


STORAGE = Storage(
    tables=(
        Table("vq_powers", VqPower, "power__campaign"),
        # a zone is named by its key, in the spaces and leaders that lie in it
        Table("vq_zones", VqZone, "campaign", names="key", noun="zone"),
        Table("vq_spaces", VqSpace, "area__campaign"),
        Table("vq_units", VqUnits, "campaign", ref=("power", "kind", "area"), noun="unit stack"),
        Table("vq_leaders", VqLeader, "campaign", noun="leader"),
        Table("vq_pending", VqPending, "campaign"),
    ),
    piece_ids={
        "orders": ((GM_LINE_PIECE, "vq_units"),),
        # the procedure under way keeps the pieces it is displacing
        "vq_pending": ((("data", "queue", ..., 1), _queue_item),),
    },
    key_fields={(VqSpace, "zone"): VqZone, (VqLeader, "zone"): VqZone},
)
