"""The verify page of a resolved phase: every stored roll recomputed from its revealed seed.

Anyone seated in the campaign may check any resolved phase. The page shows the faces of
every roll, but a roll's purpose and explanation only as the seat's log shows them: a
roll whose log line is hidden or redacted for the viewer (the other side's blocks in Pax
Baltica) reads "a roll of the other side". An open phase keeps its seed secret: 409.
Hidden draws are checked against the campaign's secret once it has ended (the GM: at
any time); until then the page says so and shows only the secret's hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy

from campaign.play.services import seat_for
from campaign.presenters import reads_in_full, visible_text
from campaign.records.verify import DRAW_SCRIPT, SCRIPT, RollCheck, verify_draws, verify_phase
from campaign.selectors.verify import phase_rolls
from campaign.views.access import campaign_phase
from campaign.views.context import load_state
from rules.text import is_message
from rules.translation import localized
from rules.translation import render as render_message

OTHER_SIDE = gettext_lazy("a roll of the other side")


@dataclass(frozen=True)
class RollRow:
    """A checked roll as this viewer may read it."""

    check: RollCheck
    rule: str
    linked: bool  # the rule is a procedure of the rules page
    purpose: str
    explanation: str
    hidden: bool  # the viewer's log hides or redacts it
    log_text: str  # what the viewer's log reads instead ("" when nothing)


@login_required
def phase_verify(request, campaign_id: int, phase_id: int):
    state = load_state(seat_for(request.user, campaign_id))
    phase = campaign_phase(campaign_id, phase_id)
    phase.campaign = state.campaign
    spec = state.rules.phase(phase.key)
    context = {
        "seat": state.seat,
        "campaign": state.campaign,
        "ruleset": state.rules,
        "verified_phase": phase,
        "phase_name": spec.name,
        "phase_turn": localized(state.rules.turn_label(phase.turn, state.campaign.setup)),
    }
    if phase.is_open:
        return render(request, "campaign/verify.html", {**context, "still_open": True}, status=409)
    rolls = phase_rolls(phase)
    verification = verify_phase(phase, rolls, dice_mode=state.campaign.dice_mode)
    revealed = state.campaign.ended_at is not None or state.seat.is_gm
    draws = verify_draws(state.campaign, phase, rolls, reveal=revealed)
    viewer = state.viewer
    rows = [roll_row(check, state.rules, viewer) for check in verification.checks]
    return render(
        request,
        "campaign/verify.html",
        {
            **context,
            "verification": verification,
            "rows": rows,
            "script": SCRIPT,
            "script_faces": " ".join(str(face) for face in verification.recomputed),
            "draws": draws,
            "draw_script": DRAW_SCRIPT,
        },
    )


def roll_row(check: RollCheck, rules: Any, viewer: frozenset[str] | None) -> RollRow:
    """The roll's purpose and explanation when the viewer's log shows its line in full;
    otherwise only that it is a roll of the other side (and the log's redacted line)."""
    roll = check.roll
    event = getattr(roll, "event", None)  # a roll without its log line: hidden to players
    full = viewer is None or (event is not None and reads_in_full(event, viewer))
    shown = "" if full or event is None else visible_text(event, viewer)
    return RollRow(
        check=check,
        rule=roll.rule,
        linked=roll.rule in rules.procedures,
        purpose=in_language(roll, "purpose", event) if full else OTHER_SIDE,
        explanation=in_language(roll, "explanation", event) if full else "",
        hidden=not full,
        log_text=shown,
    )


def in_language(roll: Any, field: str, event: Any) -> str:
    """The roll's purpose or explanation in the reader's language: from its message, or
    for a roll stored before rolls kept them, from its log line (``said``)."""
    message = getattr(roll, f"{field}_message", None)
    if is_message(message):
        return render_message(message, getattr(roll, field))
    return said(event, {"purpose": "purpose", "explanation": "roll"}[field], getattr(roll, field))


def said(event: Any, part: str, stored: str) -> str:
    """A part of the roll's log line (its "purpose" or its "roll") in the reader's
    language, where the line's message holds it as the roll stored it; else the roll's
    stored English."""
    message = (getattr(event, "message", None) or {}).get("params", {}).get(part)
    if not is_message(message):
        return stored
    with translation.override(None):
        english = render_message(message, stored)
    return render_message(message, stored) if english == stored else stored
