"""The GM dashboard's edit panels: one per kind of edit the ruleset offers, titled, its
forms built only when the GM opens it (campaign/views/edits.py serves them then)."""

from __future__ import annotations

from campaign.play import gm_orders
from campaign.views.context import CampaignState
from rules.forms import RowEditForm, row_item

EDIT_PICKER_FROM = 20  # more items than this: a picker, and the item's form on demand


def edit_forms(state: CampaignState) -> dict:
    """The ruleset's GM edit forms by edit key."""
    return state.rules.hooks.edit_forms


def edit_panels(
    state: CampaignState, opened: tuple[str, str] = ("", ""), prefilled=None
) -> list[dict]:
    """Each kind of edit, titled; its forms are built only for the panel ``opened`` (the
    (edit, item) shown, ``prefilled`` from an order for the GM it carries out) and for
    a panel that lists orders for the GM its edit carries out. The others load on demand
    (``edit_panel``)."""
    gm_lines = gm_orders.by_edit(gm_orders.readable(state))
    panels = []
    for key, form_class in edit_forms(state).items():
        panel = {
            "key": key,
            "title": form_class.title,
            "rule": form_class.rule,
            "submit_label": form_class.submit_label,
            "opened": opened[0] == key,
            "gm_lines": gm_lines.get(key, []),
        }
        if panel["opened"]:
            panel.update(panel_body(state, form_class, opened[1], prefilled))
        elif panel["gm_lines"]:
            panel.update(panel_body(state, form_class))
        panels.append(panel)
    return panels


def panel_body(state: CampaignState, form_class, item: str = "", prefilled=None) -> dict:
    """A panel's forms: one per item; a long list (more than EDIT_PICKER_FROM items:
    corps, stacks, areas of a big map) as a picker instead, with only ``item``'s form,
    whose other items' forms load on demand (``edit_item``)."""
    items = form_class.items(state.world)
    if len(items) > EDIT_PICKER_FROM:
        forms = [form_class.instance(state.world, item)] if item else []
    else:
        forms, items = form_class.instances(state.world), []
    if prefilled is not None:
        forms = [prefilled] + [form for form in forms if form and row_item(form) != item]
    return {
        "loaded": True,
        "current": form_class.current(state.world),
        "forms": [form for form in forms if form is not None],
        "items": items,
    }


def opened_panel(state: CampaignState, key: str, form_class, item: str = "", prefilled=None):
    """The panel an edit's answer or its loading shows again: its key, its button and its
    forms (``panel_body``)."""
    body = panel_body(state, form_class, item, prefilled)
    return {"key": key, "submit_label": form_class.submit_label, **body}


def edited_row(before: CampaignState, after: CampaignState, key: str, form) -> dict | None:
    """The panel an edit's answer shows when the edit changed only the row ``form`` edits
    (the item's form alone, prefilled again; the rest of the panel stands as the page
    shows it): a row form whose edit left the lines above the rows, every other row and
    its own caption as they were. None: the whole panel is sent again."""
    form_class, item = type(form), row_item(form)
    if not (form.element_id and issubclass(form_class, RowEditForm)):
        return None

    def panel_without_row(world) -> tuple:
        rows = form_class.rows(world)
        others = [row for row in rows if str(row.key) != item]
        captions = [row.caption for row in rows if str(row.key) == item]
        return form_class.current(world), others, captions

    edited = form_class.instance(after.world, item)
    if edited is None or panel_without_row(before.world) != panel_without_row(after.world):
        return None
    return {"key": key, "submit_label": form_class.submit_label, "form": edited}
