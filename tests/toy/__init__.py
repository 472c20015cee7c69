"""Beacons: a toy fourth ruleset that plugs into Courier through the ruleset contract
alone (rules.engine.Ruleset, a storage module, a Django app), to prove that a new game
is one folder. One phase, one procedure, one table; installed by tests/settings.py."""
