from rules.platform import RulesetConfig


class PaxBalticaConfig(RulesetConfig):
    """Pax Baltica's tables and hooks: its label is the ruleset's key."""

    name = "rules.pax_baltica"
    label = "pax_baltica"
    verbose_name = "Pax Baltica"
    default = True  # the app's config, beside the RulesetConfig it imports
