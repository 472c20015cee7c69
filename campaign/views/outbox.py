"""The development outbox in the browser (campaign/notify/outbox.py): each user reads the mails
Courier sent to his own address, and answers one as his mail client would, which hands
the answer to Courier as a received mail (campaign/jobs/mail_replies.py)."""

from __future__ import annotations

from email.message import EmailMessage

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from campaign.jobs import mail_replies
from campaign.notify import outbox

# A mail's HTML is shown as the mail client would: nothing in it runs or loads.
MAIL_HTML_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'"


class AnswerForm(forms.Form):
    """The answer box of a mail that invites one."""

    text = forms.CharField(label=_("Your answer"), widget=forms.Textarea(attrs={"rows": 6}))


@login_required
@require_safe
def mail_list(request):
    """The mails kept for the user's address, the newest first."""
    address = request.user.email
    mails = outbox.mails_for(address) if address else []
    return render(request, "campaign/outbox.html", {"address": address, "mails": mails})


@login_required
@require_safe
def mail(request, mail_id: str):
    """One mail: its headers, its text and, if it invites one, the answer box."""
    return mail_page(request, mail_id, kept_mail(request, mail_id), AnswerForm())


@login_required
@require_safe
def mail_html(request, mail_id: str):
    """The mail's HTML part alone, sandboxed."""
    html = outbox.html_part(kept_mail(request, mail_id))
    if html is None:
        raise Http404(gettext("This mail has no HTML part."))
    response = HttpResponse(html)
    response["Content-Security-Policy"] = MAIL_HTML_POLICY
    return response


@login_required
@require_POST
def answer(request, mail_id: str):
    """Answer the mail as a mail client would: the answer goes to Courier as a mail from
    the user's address to the mail's Reply-To address."""
    message = kept_mail(request, mail_id)
    form = AnswerForm(request.POST)
    recipient = outbox.reply_address(message)
    if not recipient:
        messages.error(request, gettext("This mail invites no answer: it has no Reply-To."))
        return mail_page(request, mail_id, message, form, status=400)
    if not form.is_valid():
        return mail_page(request, mail_id, message, form, status=400)
    sender = request.user.email
    raw = outbox.reply(message, sender, form.cleaned_data["text"])
    mail_replies.receive(raw, envelope_sender=sender, envelope_recipient=recipient)
    messages.success(
        request,
        gettext(
            "Your answer was handed to Courier as a mail. Courier's own answer, if it sends"
            " one, will be in your outbox."
        ),
    )
    return redirect("outbox:mail", mail_id)


def kept_mail(request, mail_id: str) -> EmailMessage:
    """The kept mail ``mail_id`` if it was sent to the user; a 404 if not."""
    try:
        return outbox.read(mail_id, request.user.email)
    except outbox.MailNotKept:
        raise Http404(gettext("No such mail in your outbox.")) from None


def mail_page(request, mail_id: str, message: EmailMessage, form: AnswerForm, status: int = 200):
    summary = outbox.Summary.of(mail_id, message)
    context = {
        "mail": summary,
        "to": str(message["To"] or ""),
        "unsubscribe": outbox.unsubscribe_links(message),
        "text": outbox.text_part(message),
        "has_html": outbox.html_part(message) is not None,
        "form": form if summary.reply_to else None,
    }
    return render(request, "campaign/outbox_mail.html", context, status=status)
