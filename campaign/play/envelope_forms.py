"""What a POST carries beside the fields of its own form: the phase and version a power's
orders or a decision were shown at, the log line the GM's page shows, the action a
button chose, the row a GM edit names. Each parsed by a form whose ``values`` (or
``cleaned_data``) the view uses."""

from __future__ import annotations

from collections.abc import Callable

from django import forms

from campaign.play.gm_order_forms import PREFIX
from campaign.query_forms import IdField, ParamsForm, RawField

ENVELOPE = ("csrfmiddlewaretoken", "phase", "ready", "version")  # posted with the orders
GM_PREFIX = f"{PREFIX}-"  # the fields of the orders' part for the GM


class OrderEnvelopeForm(ParamsForm):
    """What is posted with a power's orders or a decision: the phase the form was shown
    for (ASCII digits, compared as sent: the only field refused), whether the orders are
    ready ("1"), and the campaign's version a decision was asked at (None: not said)."""

    phase = forms.RegexField(r"\A[0-9]+\Z", strip=False)
    ready = RawField()
    version = IdField()

    def clean_ready(self) -> bool:
        return self.cleaned_data["ready"] == "1"

    def order_data(self):
        """The order's (or decision's) own fields: the post without this envelope, the
        CSRF token and the part for the GM (its own form: campaign/play/gm_order_forms.py)."""
        fields = self.data.copy()
        for name in [*ENVELOPE, *(n for n in self.data if n.startswith(GM_PREFIX))]:
            fields.pop(name, None)
        return fields


class LogSeenForm(ParamsForm):
    """The newest log line the page that sent a GM's form shows (its log's ``log_seen``);
    None when it does not say."""

    log_seen = IdField()


class ActionForm(ParamsForm):
    """The action a form's button posts (``action``): one of ``actions``, else none."""

    action = forms.ChoiceField(required=False)

    def __init__(self, data, *, actions: tuple[str, ...]):
        super().__init__(data)
        self.fields["action"].choices = [(action, action) for action in actions]


class EditRowForm(ParamsForm):
    """The row a GM edit's post names in its form's ``row_field``: one of ``items`` (read
    only when a row is named), else "new" (the form of a new row)."""

    NEW = "new"

    def __init__(self, data, *, field: str, items: Callable[[], list[tuple[str, str]]]):
        super().__init__(data)
        self.field = field
        if field:
            self.fields[field] = forms.ChoiceField(choices=items, required=False)

    @property
    def item(self) -> str:
        return (self.values[self.field] if self.field else "") or self.NEW
