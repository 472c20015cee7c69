"""The GM edit service every ruleset shares: one edit of the hand-kept state (what the
rules leave to the GM), applied to the World under the campaign's lock, logged with who
made it and the order for the GM it carries out, and written back; in the same
transaction the open phase then waits for whoever has something to order in the edited
state.

A ruleset builds its ``gm_edit`` (its ``Hooks.gm_edit``) with ``edit_service``: its
edits (rules/<ruleset>/edits.py: key → function of the World and the form's fields,
returning the log's Text or a ``rules.log.Change`` for an edit only some powers may
read in full), how it loads and writes its state, and optionally what must hold before
an edit (``ready``) and what the rules do at once after one (``settle``), and what its
``load_world`` would read once the edit is written (``stored``, from what the service
loaded and wrote), which the pages then read from the cache instead of the database;
and ``from_page``, how the World the pages read (what ``load_world`` returns) becomes
what ``load`` returns, so that an edit starts from the World kept for the version it
locks instead of reading the state again. ``apply`` makes the edit a GM's form holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from campaign.core.changes import locked_campaign
from campaign.errors import ServiceError
from campaign.models import Campaign
from campaign.play.scheduling import state_edited
from campaign.state import persistence, world_cache
from rules.gm_orders import edit_line
from rules.log import GM, Change, LogLine
from rules.refusals import EditError
from rules.text import Text
from rules.translation import localized


def edit_service(
    edits: Mapping[str, Callable[..., Text | Change]],
    load: Callable[[Campaign], Any],
    write: Callable[[Any, Campaign, Any], None],
    *,
    ready: Callable[[Any], None] | None = None,
    settle: Callable[[Any], object] | None = None,
    stored: Callable[[Any], Any] | None = None,
    from_page: Callable[[Any, Campaign], Any] | None = None,
) -> Callable[..., Text]:
    """A ruleset's ``gm_edit(campaign_id=, actor=, edit=, carrying_out=None, **fields)``:
    the edit's Text, or ServiceError (nothing changed) for an unknown edit, a state not
    ``ready`` for edits, or the edit's own EditError."""

    def gm_edit(*, campaign_id: int, actor, edit: str, carrying_out=None, **fields) -> Text:
        if edit not in edits:
            raise ServiceError(gettext("Unknown edit “%(edit)s”.") % {"edit": edit})
        with transaction.atomic():
            campaign = locked_campaign(campaign_id)
            loaded = persistence.loaded_for_change(campaign, load, from_page)
            if ready is not None:
                ready(loaded)
            try:
                result = edits[edit](loaded.world, **fields)
            except EditError as error:
                raise ServiceError(localized(error.text)) from None
            change = result if isinstance(result, Change) else Change(result)
            loaded.world.log.insert(0, log_line(actor.get_username(), change, carrying_out))
            if settle is not None:
                settle(loaded.world)
            write(loaded, campaign, actor)
            campaign.bump_version()
            if stored is not None:
                world_cache.keep(campaign, stored(loaded))
            state_edited(campaign, loaded.world)
            return change.text

    return gm_edit


def apply(form, *, campaign: Campaign, actor, carrying_out: Text | None = None) -> Text:
    """Make the edit a valid GM edit form (rules.forms.BaseEditForm) holds, through the
    campaign's ruleset; the log's Text, which names the order for the GM it carries
    out, if any. The open phase then waits for whoever has something to order in the
    edited state."""
    return campaign.rules.hooks.gm_edit(
        campaign_id=campaign.pk,
        actor=actor,
        edit=form.edit_key,
        carrying_out=carrying_out,
        **form.edit_fields(),
    )


def log_line(user: str, change: Change, carrying_out: Text | None) -> LogLine:
    """The edit's log line: who made it, the order it carries out, and for an edit only
    some powers read in full, what the others read."""
    redacted = edit_line(user, change.redacted, carrying_out) if change.redacted else ""
    return LogLine(
        GM,
        edit_line(user, change.text, carrying_out),
        audience=change.audience,
        redacted=redacted,
    )
