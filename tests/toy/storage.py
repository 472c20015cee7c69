"""Where Beacons keeps its state (tests/toy/models.py), as the archive and the snapshots
read and write it (campaign/state/storage.py). In an archive's ``state``::

      "beacons": [{area, lit_by}],
      "lords": [{power, wood}],
      "raids": [{position, raider, area, face}]   # the raids under way, if any
"""

from rules.platform import Storage, Table
from tests.toy.models import Beacon, Lord, Raid

STORAGE = Storage(
    tables=(
        Table("beacons", Beacon, "campaign"),
        Table("lords", Lord, "power__campaign", noun="reserve"),
        Table("raids", Raid, "campaign", noun="raid"),
    )
)
