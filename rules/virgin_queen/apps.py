from rules.platform import RulesetConfig


class VirginQueenConfig(RulesetConfig):
    """Virgin Queen's tables and hooks: its label is the ruleset's key."""

    name = "rules.virgin_queen"
    label = "virgin_queen"
    verbose_name = "Virgin Queen"
    default = True  # the app's config, beside the RulesetConfig it imports
