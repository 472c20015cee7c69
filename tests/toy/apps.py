from rules.apps import RulesetConfig


class ToyConfig(RulesetConfig):
    """Beacons' one table and its hooks: its label is the ruleset's key."""

    name = "tests.toy"
    label = "toy"
    verbose_name = "Beacons"
    default = True  # the app's config, beside the RulesetConfig it imports
