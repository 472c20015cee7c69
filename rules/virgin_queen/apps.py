from django.apps import AppConfig


class VirginQueenConfig(AppConfig):
    """Virgin Queen's tables: its label is the ruleset's key."""

    name = "rules.virgin_queen"
    label = "virgin_queen"
    verbose_name = "Virgin Queen"
