from django.apps import AppConfig


class EmpiresInArmsConfig(AppConfig):
    """Empires in Arms's tables: its label is the ruleset's key."""

    name = "rules.empires_in_arms"
    label = "empires_in_arms"
    verbose_name = "Empires in Arms"
