"""The press pages (campaign/press/press.py): every channel a seat reads (press/), one channel
(press/<channel>/), the campaign page's panel, and the GM's press rules.

A GET renders the page, 50 messages to a page, newest first; its first page marks what
it shows as read. With ``part`` it answers a fragment that polls itself every
settings.POLL_SECONDS (204 while the reader's ``stamp`` is unchanged, so an idle poll
costs one query of the press): ``panel`` (the campaign page's panel, loaded by HTMX:
the newest messages of each channel, each with a reply box where the seat may write,
and the compose form), ``channels`` or ``messages``.

A POST sends a message: from a channel's page or its reply box in the panel to that
channel's address, from the compose form to the press page's. With HTMX the answer is
a notice for the form (which keeps its text until it is sent): "sent", with what shows
the message (the panel in place of the panel, or the channels and the messages out of
band), or the reason it was refused with its status (403, 422, 429;
static/courier/press.js shows those). Without HTMX: a redirect to the message's
channel, or the press page with the form as sent, the reason and the status.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from campaign.models import Campaign, Channel, Power, Seat
from campaign.play.services import seat_for
from campaign.press import press
from campaign.press.press_forms import ComposeForm, PressRulesForm, SentFromForm
from campaign.query_forms import PressQueryForm
from campaign.selectors.press import message_page, newest_messages
from campaign.views.access import error_text, gm_seat
from campaign.views.context import load_state
from campaign.views.gm import perform
from campaign.views.refusals import status_of

PANEL, ALL = "panel", "all"  # the compose form's ``view``: where it was sent from


@login_required
@require_http_methods(["GET", "POST"])
def press_index(request, campaign_id: int):
    seat = seat_for(request.user, campaign_id)
    return answer(request, seat, None, press.campaign_powers(seat.campaign))


@login_required
@require_http_methods(["GET", "POST"])
def press_channel(request, campaign_id: int, channel: str):
    """One channel; 404 for a channel the seat does not read, as for one that does not
    exist (another set of powers, another campaign's)."""
    seat = seat_for(request.user, campaign_id)
    powers = press.campaign_powers(seat.campaign)
    address = press.address_of(channel, powers)
    if address is None or not (
        press.reads(seat, address) or press.reads_before_leaving(seat, address)
    ):
        raise Http404("No such channel.")
    return answer(request, seat, address, powers)


@login_required
@require_POST
def press_rules(request, campaign_id: int):
    """The GM sets the press rules (campaign.press.press.set_rules)."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        PressRulesForm(request.POST),
        lambda data: press.set_rules(
            campaign_id=campaign_id,
            press=data["press"],
            gm_reads_private=data["gm_reads_private"],
            actor=request.user,
        ),
        gettext("Press rules saved."),
        anchor="#press-rules",
    )


def answer(request, seat: Seat, address: press.Address | None, powers: dict[str, Power]):
    if request.method == "POST":
        return send(request, seat, address, powers)
    part = PressQueryForm(request.GET).values["part"]
    if part:
        return poll(request, seat, address, powers, part)
    return page(request, seat, address, powers)


def page(request, seat, address, powers, *, form=None, notice="", status=200):
    shown = message_page(seat, address, PressQueryForm(request.GET).values["page"])
    rows = list(shown)
    listed = press.entries(seat, request.user, powers)
    if shown.number == 1:
        listed = press.mark_read(request.user, listed, rows)
    context = reader_context(seat, address, powers, listed, form=form, notice=notice)
    context |= {"page": shown, "lines": press.lines(seat, rows, powers)}
    return render(request, "campaign/press.html", context, status=status)


def poll(request, seat, address, powers, part: str):
    """A fragment that polls itself: 204 while the reader's press is unchanged."""
    listed = press.entries(seat, request.user, powers)
    if PressQueryForm(request.GET).values["stamp"] == press.stamp(listed):
        return HttpResponse(status=204)
    if part == PANEL:
        return panel(request, seat, powers, listed)
    if part == "channels":
        context = reader_context(seat, None, powers, listed, view=PANEL)
        return render(request, "campaign/press.html#channels", context)
    context = newest(request, seat, address, powers, listed)
    return render(request, "campaign/press.html#refreshed", context)


def panel(request, seat, powers, listed, *, sent: str = ""):
    """The campaign page's panel: the newest messages of each channel the seat reads,
    the unread ones labelled new, a reply box for each the seat may write to, and the
    compose form; ``sent``: the notice of a message just sent. It marks nothing read:
    it loads and polls whether or not the reader looks at it (a phone's hidden section,
    a tab in the background); the channel's page marks what it shows."""
    shown = press.glances(seat, listed, powers)
    context = reader_context(seat, None, powers, listed, view=PANEL)
    context |= {
        "sent": sent,
        "glances": [(glance, reply_form(seat, powers, glance.entry)) for glance in shown],
        "quiet": [entry for entry in listed if not entry.last_id],
    }
    return render(request, "campaign/press_panel.html#panel", context)


def reply_form(seat: Seat, powers: dict[str, Power], entry: press.Entry) -> ComposeForm | None:
    """A channel's reply box in the panel, or None where the seat may not write."""
    address = press.address_of(entry.key, powers)
    if address is None or not press.may_reply(seat, address):
        return None
    auto_id = f"press_reply_{entry.pk}_%s"
    return ComposeForm(seat=seat, powers=powers, address=address, auto_id=auto_id)


def newest(request, seat, address, powers, listed, **extra) -> dict:
    """The first page of messages, marked read, and the context that shows it."""
    rows = newest_messages(seat, address)
    listed = press.mark_read(request.user, listed, rows)
    context = reader_context(seat, address, powers, listed, **extra)
    return context | {"lines": press.lines(seat, rows, powers)}


def send(request, seat, address, powers):
    form = ComposeForm(request.POST, seat=seat, powers=powers, address=address)
    view = SentFromForm(request.POST).values["view"]
    if view is None:
        view = PANEL if address is None else address.key
    try:
        press.may_write(seat)
        if not form.is_valid():
            raise press.PressError(error_text(form))
        data = form.cleaned_data
        message = press.post_message(
            seat=seat,
            to=address.key if address else data["to"],
            chosen=data.get("powers", []),
            text=data["text"],
            as_gm=data.get("as_gm", False),
        )
    except press.PressError as error:
        return refuse(request, seat, address, powers, form, error)
    if not request.htmx:
        messages.success(request, gettext("Message sent."))
        return redirect("campaign:press_channel", seat.campaign_id, message.channel.key)
    listed = press.entries(seat, request.user, powers)
    if view == PANEL:  # the panel in place, whichever of its forms was sent
        response = panel(request, seat, powers, listed, sent=gettext("Message sent."))
        return retarget(reswap(response, "outerHTML"), "#press-panel")
    sent = {"notice": gettext("Message sent."), "notice_level": "success"}
    context = newest(request, seat, address, powers, listed, view=view, **sent)
    return render(request, "campaign/press.html#sent", context)


def refuse(request, seat, address, powers, form, error: press.PressError):
    """The reason, with the form as sent (a page), or alone (HTMX: the form keeps it)."""
    if not request.htmx:
        return page(
            request, seat, address, powers, form=form, notice=str(error), status=status_of(error)
        )
    context = {"notice": str(error), "notice_level": "error"}
    return render(request, "campaign/press.html#notice", context, status=status_of(error))


def reader_context(
    seat: Seat,
    address: press.Address | None,
    powers: dict[str, Power],
    listed: list[press.Entry],
    *,
    form=None,
    view: str = "",
    notice: str = "",
    notice_level: str = "error",
) -> dict:
    campaign = seat.campaign
    return {
        "seat": seat,
        "campaign": campaign,
        "address": address,
        "title": press.channel_label(seat, address) if address else "",
        "view": view or (address.key if address else ALL),
        "channels": listed,
        "unread": sum(e.unread for e in listed),
        "stamp": press.stamp(listed),
        "form": form or ComposeForm(seat=seat, powers=powers, address=address),
        "rules": rules_note(seat, address),
        "poll_seconds": settings.POLL_SECONDS,
        "notice": notice,
        "notice_level": notice_level,
    }


def rules_note(seat: Seat, address: press.Address | None) -> list[str]:
    """What the campaign's press rules mean for this reader, in a sentence or two."""
    campaign = seat.campaign
    said = [
        {
            Campaign.Press.FULL: gettext(
                "Full press: the powers write to everyone, to any set of powers, and to the GM."
            ),
            Campaign.Press.PUBLIC: gettext(
                "Public press only: the powers write to everyone and to the GM, not privately."
            ),
            Campaign.Press.NONE: gettext(
                "No press between powers (gunboat): each power writes to the GM only."
            ),
        }[campaign.press]
    ]
    if seat.role == Seat.Role.OBSERVER:
        said.append(gettext("Observers read the public press; they do not write."))
    elif address is None or address.kind == Channel.Kind.PRIVATE:
        said.append(
            gettext("The GM reads the private press in this campaign.")
            if campaign.gm_reads_private
            else gettext("The GM does not read the private press in this campaign.")
        )
    return said
