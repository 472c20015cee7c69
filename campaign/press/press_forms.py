"""The press forms: a message (campaign/press/press.py checks who may send it where) and the
GM's press rules."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Channel, Power, Seat
from campaign.press import press
from campaign.query_forms import ParamsForm, RawField


class ComposeForm(forms.Form):
    """A message to the public channel, the GM, or a set of powers chosen by the writer;
    on a channel's own page, to that channel. It offers what the seat may write under the
    campaign's press rules; the service checks every post anyway. A channel's form (its
    page's, or its reply box in the campaign page's panel: ``auto_id`` tells them apart)
    names its channel in ``to``, and is refused when sent to another channel's address."""

    to = forms.CharField(label=_("To"), widget=forms.Select)
    powers = forms.MultipleChoiceField(
        label=_("Powers"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Your own power is always in the channel."),
    )
    as_gm = forms.BooleanField(label=_("Sign as the GM"), required=False)
    text = forms.CharField(
        label=_("Message"),
        max_length=press.MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Write a message first: this one is empty.")},
    )

    def __init__(
        self,
        *args,
        seat: Seat,
        powers: dict[str, Power],
        address: press.Address | None = None,
        **kwargs,
    ):
        kwargs.setdefault("auto_id", "press_%s")
        super().__init__(*args, **kwargs)
        self.seat, self.address = seat, address
        mine = seat.power.key if seat.power_id else None
        self.fields["powers"].choices = [(k, p.display_name) for k, p in powers.items()]
        self.fields["powers"].widget.choices = [
            (k, p.display_name) for k, p in powers.items() if k != mine
        ]
        if address is not None:
            self.fields["to"].widget = forms.HiddenInput()
            self.fields["to"].initial = address.key
            self.fields["to"].required = False  # the page's own channel
            del self.fields["powers"]
        else:
            destinations = self.destinations(powers)
            self.fields["to"].widget.choices = destinations
            if press.PRIVATE_CHOICE not in dict(destinations):
                del self.fields["powers"]
        public = address is None or address.kind == Channel.Kind.PUBLIC
        if not (seat.is_gm and seat.power_id and public):
            del self.fields["as_gm"]
        self.fields["text"].widget.attrs["maxlength"] = press.MAX_LENGTH

    def clean_to(self) -> str:
        to = self.cleaned_data["to"]
        if self.address is not None and to and to != self.address.key:
            raise forms.ValidationError(
                gettext("This message was written to another channel: reload the page.")
            )
        return to

    def destinations(self, powers: dict[str, Power]) -> list[tuple[str, str]]:
        """Where this seat may write under the campaign's press rules."""
        seat, rules = self.seat, self.seat.campaign.press
        choices = []
        if seat.is_gm or rules != Campaign.Press.NONE:
            choices.append((press.PUBLIC, gettext("Everyone (public)")))
        if seat.is_gm:
            choices += [
                (press.GM_PREFIX + k, gettext("%(power)s and the GM") % {"power": p.display_name})
                for k, p in powers.items()
                if p.pk != seat.power_id
            ]
        elif seat.power_id:
            choices.append((press.GM_CHOICE, gettext("The GM")))
        if seat.power_id and rules == Campaign.Press.FULL:
            choices.append((press.PRIVATE_CHOICE, gettext("The powers ticked below (private)")))
        return choices

    @property
    def writable(self) -> bool:
        """Whether the seat may write anything here (an observer may not)."""
        return self.seat.role != Seat.Role.OBSERVER


class SentFromForm(ParamsForm):
    """Where a message's form was sent from (``view``: the campaign page's panel, the
    press page or a channel's), for the answer to show the message there; None when the
    post does not say."""

    view = RawField(empty=None)


class PressRulesForm(forms.Form):
    """The GM's press rules (Campaign.press, Campaign.gm_reads_private)."""

    press = forms.ChoiceField(
        label=_("Press"), choices=Campaign.Press.choices, widget=forms.RadioSelect
    )
    gm_reads_private = forms.BooleanField(
        label=_("The GM reads the private press between powers"),
        required=False,
        help_text=_("Players see on their press pages whether the GM reads it."),
    )

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> PressRulesForm:
        initial = {"press": campaign.press, "gm_reads_private": campaign.gm_reads_private}
        return cls(data, initial=initial)
