"""What is done with a campaign's past: its archive (export and import as one JSON
document), a snapshot's state rows read back for a ruleset's loader, the GM's rollback of
the last resolved phase, the replay that re-resolves every phase, the dice check against
the revealed seeds, the timeline chart and a power's summary of the last phase. It is a
top layer: it drives play and reads press and state, and nothing below imports it."""
