from importlib import import_module

from django.apps import AppConfig

from rules import engine


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules engine"


class RulesetConfig(AppConfig):
    """A ruleset's app: its label is the ruleset's key, its package holds its tables
    (models.py) and, in hooks.py, its HOOKS, which it attaches once the models are
    loaded."""

    def ready(self) -> None:
        engine.attach(self.label, import_module(f"{self.name}.hooks").HOOKS)
