from rules.platform import RulesetConfig


class ToyConfig(RulesetConfig):
    """Beacons' tables and hooks: its label is the ruleset's key."""

    name = "tests.toy"
    label = "toy"
    verbose_name = "Beacons"
    default = True  # the app's config, beside the RulesetConfig it imports
