"""One adapter per ruleset: a case's plain data to the rules' public functions and back.

Each adapter module has ``RULESET`` (the ruleset key) and ``run(case, board)``, which
builds the state from the corpus map ``board`` and the case's ``given``, makes the call
the procedure's entry in ``CALLS`` names with the case's ``dice`` and ``choices``, and
returns (outcome, log): the outcome a nested dict that ``expect`` is matched against,
the log the lines written, each as (rule, text): the text a ``Text`` (rules/text.py),
as the app stores it.
"""

from __future__ import annotations

import copy
from typing import Any


def merged(board: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``given`` laid over a copy of ``board``: tables merged key by key, the rest
    replaced."""
    out = copy.deepcopy(board)
    for key, value in given.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def lines(log) -> list[tuple[str, Any]]:
    """Log lines as (rule, text) pairs."""
    return [(line.rule, line.text) for line in log]
