"""The game as it is played: starting a campaign from a scenario, a phase's lifecycle
(opening, orders, decisions, resolution), the GM's schedule, deadlines, extensions and
edits, orders for the GM, away periods, civil disorder and replacements, who played
which power when and how reliably, ending a campaign, and the forms of these pages. It
tells people through notify and stores through state and core; it imports no layer
above it."""
