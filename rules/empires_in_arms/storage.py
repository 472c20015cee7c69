"""Where Empires in Arms keeps its state: its tables (rules/empires_in_arms/models.py) as
the archive and the snapshots read and write them (campaign/storage.py).

In an archive's ``state`` (campaign/archive.py)::

      "eia_powers": [{power, zone, pays_bad_roll, militia_due}],
      "eia_areas": [{area, guerrilla_value, islamic, minor_status}],
      "national_modifiers": [{area, power, value}],
      "corps": [{power, area, minor, name, fought, besieged, besieging}],
      "revolts": [{sponsor, area, number, months_without_guerrillas, capital_held_months,
                   active, end_reason, conquest_choice, started_turn, ended_turn}],
      "guerrillas": [{area, origin, nationality, factors, revolt, besieged}],
      "depots": [{power, area, port_city, garrison}],
      "let_downs": [{power, area, count}],
"""

from campaign.storage import GM_LINE_PIECE, Storage, Table
from rules.empires_in_arms.models import (
    Corps,
    Depot,
    EiaArea,
    EiaPowerStatus,
    GuerrillaStack,
    LetDown,
    NationalModifier,
    Revolt,
)

STORAGE = Storage(
    tables=(
        Table("eia_powers", EiaPowerStatus, "power__campaign"),
        Table("eia_areas", EiaArea, "area__campaign"),
        Table("national_modifiers", NationalModifier, "campaign"),
        Table("corps", Corps, "campaign", noun="corps"),
        Table("revolts", Revolt, "campaign"),
        Table("guerrillas", GuerrillaStack, "campaign", noun="guerrilla stack"),
        Table("depots", Depot, "campaign"),
        Table("let_downs", LetDown, "campaign"),
    ),
    piece_ids={
        "orders": (
            (("moves", ..., "stack"), "guerrillas"),
            (GM_LINE_PIECE, "corps"),
        ),
    },
)
