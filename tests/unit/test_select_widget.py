"""The site's select template (templates/django/forms/widgets/select.html) writes the
same HTML as Django's own, options, groups, attributes and selections alike."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, TemplatesSetting

CHOICES = [("", "—"), ("a", "Área <1>"), ("b", 'B & "c"'), (3, "three")]
GROUPED = [("North", [("n1", "Nord"), ("n2", "Nordost")]), ("", [("x", "Elsewhere")])]


@pytest.mark.parametrize(
    "widget, value",
    [
        (forms.Select(choices=CHOICES), "b"),
        (forms.Select(choices=CHOICES, attrs={"size": 4, "required": True, "disabled": False}), ""),
        (forms.SelectMultiple(choices=CHOICES), ["a", "3"]),
        (forms.Select(choices=GROUPED), "n2"),
        (forms.NullBooleanSelect(), True),
        (forms.Select(choices=[]), None),
    ],
)
def test_the_select_is_written_as_django_writes_it(widget, value):
    attrs = {"id": "id_pick"}
    ours = widget.render("pick", value, attrs=attrs, renderer=TemplatesSetting())
    theirs = widget.render("pick", value, attrs=attrs, renderer=DjangoTemplates())
    assert ours == theirs
