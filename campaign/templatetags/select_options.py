"""The options of a select, written in Python: the HTML of Django's select_option.html
template, without a template rendered per option (templates/django/forms/widgets/
select.html uses it; a 400-area map's lists have 400 options). Escaped as Django's
conditional_escape does, without its lazy-text checks, which cost more than the rest."""

from html import escape

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


def _escaped(value) -> str:
    """What conditional_escape returns: safe text as it is, anything else escaped."""
    return value.__html__() if hasattr(value, "__html__") else escape(str(value))


def _attributes(attrs: dict) -> str:
    """What Django's attrs.html writes: ` name` for True, ` name="value"` otherwise."""
    return "".join(
        f" {_escaped(name)}" if value is True else f' {_escaped(name)}="{_escaped(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )


@register.filter
def options_html(optgroups) -> str:
    """The select's options and groups, as Django's templates write them."""
    parts = []
    for group_name, group_choices, _index in optgroups:
        if group_name:
            parts.append(f'\n  <optgroup label="{_escaped(group_name)}">')
        for option in group_choices:
            value, label = _escaped(str(option["value"])), _escaped(option["label"])
            parts.append(
                f'\n  <option value="{value}"{_attributes(option["attrs"])}>{label}</option>\n'
            )
        if group_name:
            parts.append("\n  </optgroup>")
    return mark_safe("".join(parts))
