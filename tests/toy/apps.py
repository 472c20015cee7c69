from django.apps import AppConfig


class ToyConfig(AppConfig):
    """Beacons' one table: its label is the ruleset's key."""

    name = "tests.toy"
    label = "toy"
    verbose_name = "Beacons"
