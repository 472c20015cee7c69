"""The site's form renderer (courier/form_renderer.py) draws Django's own widget and form
templates by Jinja2 and those the site replaces (the select) by its own templates: the
same HTML as Django's templates, but for white space and how a quote is escaped."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.forms.renderers import TemplatesSetting
from django.template.backends.jinja2 import Template as Jinja2Template

from courier.form_renderer import FormRenderer

CHOICES = [("a", "Área <1>"), ("b", 'B & "c"'), (3, "three")]


def blanks_dropped(html: str) -> str:
    """HTML with each run of white space made one space, none between tags, and quotes
    escaped as Django escapes them (Jinja2 writes &#34; and &#39;)."""
    html = html.replace("&#34;", "&quot;").replace("&#39;", "&#x27;")
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


class Everything(forms.Form):
    name = forms.CharField(max_length=20, help_text="Yours")
    count = forms.IntegerField(min_value=0)
    text = forms.CharField(widget=forms.Textarea)
    when = forms.DateTimeField(required=False)
    ready = forms.BooleanField(required=False)
    pick = forms.ChoiceField(choices=CHOICES)
    one = forms.ChoiceField(choices=CHOICES, widget=forms.RadioSelect)
    many = forms.MultipleChoiceField(choices=CHOICES, widget=forms.CheckboxSelectMultiple)
    token = forms.CharField(widget=forms.HiddenInput)


@pytest.mark.parametrize("data", [None, {"name": "x" * 30, "one": "b", "many": ["a", "3"]}])
def test_a_form_is_drawn_as_djangos_templates_draw_it(data):
    ours = Everything(data, renderer=FormRenderer())
    theirs = Everything(data, renderer=TemplatesSetting())
    assert blanks_dropped(str(ours)) == blanks_dropped(str(theirs))
    assert 'type="checkbox" name="many" value="a"' in str(ours)


def test_djangos_widgets_are_drawn_by_jinja2_and_the_sites_select_by_its_own_template():
    renderer = FormRenderer()
    assert isinstance(renderer.get_template("django/forms/widgets/input.html"), Jinja2Template)
    assert isinstance(renderer.get_template("django/forms/div.html"), Jinja2Template)
    select = renderer.get_template("django/forms/widgets/select.html")
    assert not isinstance(select, Jinja2Template)
    assert "options_html" in select.template.source  # templates/django/forms/widgets/
