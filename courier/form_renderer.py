"""How forms are drawn: the site's templates (Django's engine) for the form templates the
site writes or replaces (templates/django/forms/: the select, for long lists), and
Jinja2 for the rest of Django's own form and widget templates. An order form of a big
map draws a label, an input and their attributes for each of its hundreds of choices:
Django ships each of these templates for both engines, writing the same HTML but for
white space and how a quote is escaped (tests/unit/test_form_renderer.py), and Jinja2
draws them two to three times faster."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.forms.renderers import Jinja2, TemplatesSetting

DJANGOS_OWN = "django/forms/"


class FormRenderer(TemplatesSetting):
    """TemplatesSetting, with Django's own form templates that the site does not replace
    drawn by Jinja2."""

    @cached_property
    def jinja2(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def replaced(self) -> frozenset[str]:
        """The names of Django's form templates the site's templates replace."""
        return frozenset(
            str(path.relative_to(folder))
            for folder in (t for engine in settings.TEMPLATES for t in engine.get("DIRS", ()))
            for path in (folder / DJANGOS_OWN).rglob("*.html")
        )

    def get_template(self, template_name: str):
        if template_name.startswith(DJANGOS_OWN) and template_name not in self.replaced:
            return self.jinja2.get_template(template_name)
        return super().get_template(template_name)
