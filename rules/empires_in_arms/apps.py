from rules.platform import RulesetConfig


class EmpiresInArmsConfig(RulesetConfig):
    """Empires in Arms's tables and hooks: its label is the ruleset's key."""

    name = "rules.empires_in_arms"
    label = "empires_in_arms"
    verbose_name = "Empires in Arms"
    default = True  # the app's config, beside the RulesetConfig it imports
