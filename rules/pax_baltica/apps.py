from django.apps import AppConfig


class PaxBalticaConfig(AppConfig):
    """Pax Baltica's tables: its label is the ruleset's key."""

    name = "rules.pax_baltica"
    label = "pax_baltica"
    verbose_name = "Pax Baltica"
