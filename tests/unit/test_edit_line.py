"""A GM edit's log line is found again by its msgid (campaign/records/rollback.py counts them)."""

from rules.gm_orders import EDIT_LINE_MSGIDS, carrying_out, edit_line
from rules.text import Text


def test_both_forms_of_an_edit_line_have_a_msgid_the_rollback_counts():
    change = Text("France: %(pp)s PP", pp=3)
    assert edit_line("gm", change).msgid in EDIT_LINE_MSGIDS
    assert edit_line("gm", change, carrying_out("France", 2)).msgid in EDIT_LINE_MSGIDS
    assert edit_line("gm", change) == "GM gm: France: 3 PP."
