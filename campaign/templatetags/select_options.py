"""The options of a select, written in Python: the HTML of Django's select_option.html
template, without a template rendered per option (templates/django/forms/widgets/
select.html uses it; a 400-area map's lists have 400 options)."""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()


def _attributes(attrs: dict) -> str:
    """What Django's attrs.html writes: ` name` for True, ` name="value"` otherwise."""
    return "".join(
        f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )


@register.filter
def options_html(optgroups) -> str:
    """The select's options and groups, as Django's templates write them."""
    parts = []
    for group_name, group_choices, _index in optgroups:
        if group_name:
            parts.append(format_html('\n  <optgroup label="{}">', group_name))
        for option in group_choices:
            parts.append(
                format_html(
                    '\n  <option value="{}"{}>{}</option>\n',
                    str(option["value"]),
                    mark_safe(_attributes(option["attrs"])),
                    option["label"],
                )
            )
        if group_name:
            parts.append("\n  </optgroup>")
    return mark_safe("".join(parts))
