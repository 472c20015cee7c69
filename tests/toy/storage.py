"""Where Beacons keeps its state: one table."""

from campaign.storage import Storage, Table
from tests.toy.models import Beacon

STORAGE = Storage(tables=(Table("beacons", Beacon, "campaign"),))
