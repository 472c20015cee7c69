"""How a campaign's game state is kept: each ruleset's storage declaration, reading a
World and writing back what changed (persistence), the World cached for the pages, the
state as one JSON snapshot and the history of snapshots as phases open, the rows of an
archive, and inserting many rows at once. It imports only the models, beside core at the
bottom."""
