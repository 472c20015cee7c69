"""Pages: the campaign list, a new campaign, the campaign page, the rules page."""

from __future__ import annotations

import hashlib
import re
import time
from functools import cache
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods

from campaign import presenters
from campaign.errors import ServiceError
from campaign.jobs import progress
from campaign.models import Seat
from campaign.people import home, lobby
from campaign.play.forms import NewCampaignForm
from campaign.play.scenarios import create_campaign
from campaign.play.services import seat_for
from campaign.query_forms import PollForm
from campaign.views import refusals
from campaign.views.context import ANSWER, load_state, map_context, page_context
from rules import corpus
from rules.engine import registry, ruleset_for
from rules.log import GM
from rules.text import is_message
from rules.translation import Term
from rules.translation import render as render_message


@login_required
def campaign_list(request):
    """What needs the user first, the most urgent first, then their campaigns
    (campaign/people/home.py), and their requests for a seat still waiting for a GM."""
    entries = home.entries(request.user)
    context = {
        "entries": entries,
        "needs": home.needs(entries),
        "requests": lobby.pending_of(request.user).values(),
    }
    return render(request, "campaign/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def new_campaign(request):
    """Any logged-in user may start a campaign and becomes its GM."""
    form = NewCampaignForm(request.POST or None)
    status = refusals.REFUSED if form.is_bound else 200
    if request.method == "POST" and form.is_valid():
        try:
            campaign = create_campaign(
                scenario_key=form.cleaned_data["scenario"],
                name=form.cleaned_data["name"],
                gm=request.user,
                dice_mode=form.cleaned_data["dice_mode"],
                deadline_hours=form.deadline_hours(),
                start_when=form.cleaned_data["start_when"],
            )
        except ServiceError as error:
            status = refusals.into_form(form, error)
        else:
            if campaign.start_when == campaign.StartWhen.SEATS:
                ready = gettext(
                    "“%(campaign)s” is ready: seat your players. It starts when every seat "
                    "is taken."
                )
            else:
                ready = gettext(
                    "“%(campaign)s” is ready: seat your players, then start it from this dashboard."
                )
            messages.success(request, ready % {"campaign": campaign.name})
            return redirect("campaign:gm", campaign.pk)
    return render(request, "campaign/new.html", {"form": form}, status=status)


def reader_seat(request, campaign_id: int) -> Seat:
    """The reader's seat (``seat_for``), read once per request: the ETag needs it, and so
    does the page when it must be rendered."""
    if getattr(request, "_reader_seat", None) is None:
        request._reader_seat = seat_for(request.user, campaign_id)
    return request._reader_seat


def page_etag(request, campaign_id: int) -> str | None:
    """The campaign page's version for this reader: the campaign's state version, the
    seat, and what else shapes the page for them (their CSRF cookie, time zone and
    language). Unchanged, the browser's copy is reused (304) without a render. None
    (no ETag) while a message waits to be shown once."""
    if not request.user.is_authenticated or messages.get_messages(request):
        return None
    seat = reader_seat(request, campaign_id)
    parts = (
        seat.campaign.version,
        seat.campaign.state_stamp,
        seat.pk,
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
        request.session.get("tz", ""),
        request.COOKIES.get("tz", ""),
        get_language(),
        # "… minutes ago" and deadlines move with the clock: a copy lasts a minute
        int(time.time() // 60),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


@login_required
@cache_control(private=True, no_cache=True)  # this reader's page: revalidated by its ETag
@condition(etag_func=page_etag)
def campaign_detail(request, campaign_id: int):
    state = load_state(reader_seat(request, campaign_id))
    return render(request, "campaign/detail.html", page_context(state))


@login_required
def question(request, campaign_id: int, topic: str, item_id: int):
    """A ruleset's answer to a question about one thing the seat may see (e.g. "why
    can't I reinforce this block?"), with the areas it concerns highlighted on the map.
    HTMX swaps the answer and, out of band, the map; otherwise the whole page shows it."""
    state = load_state(seat_for(request.user, campaign_id))
    questions = state.rules.hooks.questions
    if topic not in questions:
        raise Http404("No such question.")
    try:
        answer = questions[topic](state.world, state.viewer, item_id)
    except LookupError:
        raise Http404("Nothing of yours by that number.") from None
    template = f"campaign/{state.campaign.ruleset}/{topic}.html"
    highlighted = map_context(state, set(answer.get("highlight", ())), ANSWER)
    if request.htmx:
        context = {
            **answer,
            **highlighted,
            "campaign": state.campaign,
            "ruleset_templates": presenters.templates_of(state.rules),
            "oob": True,
        }
        return render(request, template, context)
    context = {**page_context(state), **answer, **highlighted, "question_template": template}
    return render(request, "campaign/detail.html", context)


@login_required
def phase_status(request, campaign_id: int):
    """Polled by the campaign page with the phase, status and pace it shows. Unchanged:
    204. The phase moved on (resolved by the worker or the GM) or its status changed:
    the campaign page, for HTMX to swap in place of the old one. Only the pace changed
    (every order is in and the phase resolves itself): the progress line alone, so that
    nothing the player is editing is lost."""
    seat = seat_for(request.user, campaign_id)
    campaign, phase = seat.campaign, seat.campaign.phase
    poll = PollForm(request.GET).values
    if phase is None or (poll["phase"], poll["status"]) != (str(phase.pk), phase.status):
        response = render(request, "campaign/detail.html", page_context(load_state(seat)))
        response["HX-Retarget"] = response["HX-Reselect"] = "#campaign-page"
        return response
    now = progress.polled(campaign, phase)
    if poll["pace"] in (None, now.key):
        return HttpResponse(status=204)
    spec = campaign.rules.phase(phase.key)
    context = {"campaign": campaign, "phase": phase, "spec": spec, "progress": now}
    return render(request, "campaign/progress.html", context)


def rules_page(request, ruleset: str):
    """The procedures (anchors #EIA-1 …) with their adjudication cases (anchors #EIA-1.01
    …, from rules/<ruleset>/corpus/), the phases of a turn, and the options."""
    try:
        rules = ruleset_for(ruleset)
    except KeyError:
        raise Http404("No such ruleset.") from None
    cases = corpus.procedure_cases(rules.key)
    words = value_words(rules.key)
    procedures = [
        (number, title, text, [readable(case, words) for case in cases.get(number, [])])
        for number, (title, text) in rules.procedures.items()
    ]
    description = corpus.board(rules.key).get("description", "")
    context = {
        "ruleset": rules,
        "rulesets": registry(),
        "procedures": procedures,
        "corpus_map": gettext(description) if description else "",
    }
    return render(request, "campaign/rules.html", context)


def readable(case: dict, words: dict[Any, str | None] | None = None) -> dict:
    """A corpus case in the reader's language: its title through the catalogs (each
    ruleset's corpus_words.py lists the titles), the values of its parts as
    ``value_html`` shows them with ``words`` (``value_words``), and its log from the
    stored messages."""
    words = words or {}
    log = [
        (gettext(rule) if rule == GM else rule, log_html(message)) for rule, message in case["log"]
    ]
    parts = {
        part: [(path, value_html(value, words, path)) for path, value in case[part]]
        for part in corpus.CASE_PARTS
    }
    return {**case, **parts, "title": gettext(case["title"]), "log": log}


@cache
def value_words(ruleset: str) -> dict[Any, str | None]:
    """{a value a case gives: the msgid that words it}: the keys of what the corpus map
    names (``corpus.names``); the words of the ruleset's names.py and corpus_words.py
    (a block's name, an event), each its own msgid; the ruleset's corpus_words.VALUES
    (words of values: a zone, a kind, a religion) and PHRASES (values that are
    sentences); and, under ("option", key, value), the label of an option's choice."""
    rules = ruleset_for(ruleset)
    found: dict[Any, str | None] = {**corpus.names(ruleset)}
    for module in ("names", "corpus_words"):
        try:
            listed = import_module(f"{rules.package}.{module}")
        except ModuleNotFoundError:
            continue
        found |= {word.msgid: word.msgid for word in getattr(listed, "WORDS", ())}
        values = getattr(listed, "VALUES", {})
        found |= {key: text and text.msgid for key, text in values.items()}
        found |= {phrase.msgid: phrase.msgid for phrase in getattr(listed, "PHRASES", ())}
    for option in rules.options:
        found |= {("option", option.key, v): Term(label).msgid for v, label in option.choices}
    return found


# A value that is a key or a code of the data, not a word: snake_case, "unit:3", "C2",
# CamelCase ("RevoltEnd"); and a number, shown as it is.
DATA_TOKEN = re.compile(r"\w*[_:\d]\w*|[A-Z][a-z]+[A-Z]\w*")
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def value_html(value: Any, words: dict[Any, str | None], path: str = "") -> str:
    """A leaf of a case's part (``corpus.leaves``) as HTML in the reader's language: an
    option's value as the label of its choice, a bool as yes or no; a name (a ``name``
    leaf, a key the corpus map names) and a word or phrase the ruleset lists
    (``value_words``) through the catalogs; a list item by item, a value of several
    words word by word. What is left is data: a key or code (``DATA_TOKEN``, or listed
    as naming nothing) is shown as code, anything else as it is (English, which the
    rules page's test counts)."""
    parent, _, key = path.rpartition(".")
    option = ("option", key, value) if parent.rpartition(".")[2] == "options" else None
    if option and not isinstance(value, list | dict) and option in words:
        return escape(gettext(words[option]))
    if isinstance(value, bool):
        return escape(gettext("yes") if value else gettext("no"))
    if isinstance(value, list):  # items; a list in it (a link) joined by dashes
        shown = [
            " – ".join(value_html(i, words) for i in item)
            if isinstance(item, list)
            else value_html(item, words)
            for item in value
        ]
        return mark_safe("; ".join(shown) if shown else "—")
    if isinstance(value, dict) or value in ("", None):
        return "—"
    if not isinstance(value, str) or NUMBER.fullmatch(value):
        return escape(str(value))
    listed = (key, value) if (key, value) in words else value
    word = words.get(listed, value if key == "name" else None)
    if word:
        return escape(gettext(word))
    if listed in words or DATA_TOKEN.fullmatch(value):  # listed as None: names nothing
        return mark_safe(f"<code>{escape(value)}</code>")
    tokens = value.split()
    known = (t in words or DATA_TOKEN.fullmatch(t) or NUMBER.fullmatch(t) for t in tokens)
    if len(tokens) > 1 and all(known):
        return mark_safe(" ".join(value_html(token, words) for token in tokens))
    return escape(value)


def log_html(message: dict) -> str:
    """A stored log message in the reader's language, as HTML. Its words are messages;
    a parameter that is none but a value with letters (a block's rating, the key of an
    area the map lacks) is data, shown as code."""
    values: list[str] = []
    html = escape(render_message(_marked(message, values)))
    for number, value in enumerate(values):
        html = html.replace(_mark(number), f"<code>{escape(value)}</code>")
    return mark_safe(html)  # each part is escaped above


def _marked(message: dict, values: list[str]) -> dict:
    """``message`` with each value that holds letters replaced by a mark, kept in
    ``values``."""
    params = {}
    for key, value in message.get("params", {}).items():
        if is_message(value):
            params[key] = _marked(value, values)
        elif isinstance(value, str) and any(char.isalpha() for char in value):
            params[key] = _mark(len(values))
            values.append(value)
        else:
            params[key] = value
    return {**message, "params": params}


def _mark(number: int) -> str:
    return f"\x00{number}\x00"
