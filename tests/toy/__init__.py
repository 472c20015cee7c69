"""Beacons: the tests' own ruleset, which plugs into Courier through the ruleset contract
alone (rules.engine.Ruleset and Hooks, a storage module, a Django app) to prove that a new
game is one folder: two phases a night, three procedures (RULES.md) with their corpus, a
presenter with its templates, style sheet and drawn map, GM edits, a decision asked of a
lord in mid-phase, and a reserve of wood hidden from the other lords. Installed by
tests/settings.py alone."""
