"""Empires in Arms forms: a player's orders (orders.py) and the GM's edits (edits.py)."""
