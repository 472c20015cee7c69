"""The subscription a browser gives when its user turns notices on (static/courier/push.js):
checked before it is kept, so that the worker only ever pushes to a push service on the
public internet, with keys that encrypt."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from campaign.errors import reason_for
from campaign.notify import webhooks

NOT_A_SUBSCRIPTION = _("This browser gave Courier a subscription it cannot use.")
NOT_A_PUSH_SERVICE = _(
    "This browser's push service is not one Courier sends notices through: try another browser."
)


def a_push_service(host: str) -> bool:
    """Whether ``host`` is one of settings.PUSH_SERVICES or a name under one of them."""
    host = host.lower().rstrip(".")
    return any(host == known or host.endswith("." + known) for known in settings.PUSH_SERVICES)


def _decoded(value: str) -> bytes:
    """Base64url without padding, as a browser gives its keys."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise forms.ValidationError(NOT_A_SUBSCRIPTION) from error


class PushSubscriptionForm(forms.Form):
    """A browser's PushSubscription: its push service's endpoint and its two keys."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=50)

    def clean_endpoint(self) -> str:
        """A push service's address: https (http only in a private network), no user or
        password in it, a host that settings.PUSH_SERVICES names, never this server or a
        private address."""
        endpoint = self.cleaned_data["endpoint"]
        parts = urlsplit(endpoint)
        secure = parts.scheme == "https"
        if not secure and not settings.WEBHOOK_ALLOW_PRIVATE:
            raise forms.ValidationError(NOT_A_SUBSCRIPTION)
        if parts.username is not None or not a_push_service(parts.hostname or ""):
            raise forms.ValidationError(NOT_A_PUSH_SERVICE)
        if reason_for(webhooks.check_webhook, endpoint):
            raise forms.ValidationError(NOT_A_PUSH_SERVICE)
        return endpoint

    def clean_p256dh(self) -> str:
        """The device's public key: a point of the P-256 curve, uncompressed."""
        value = self.cleaned_data["p256dh"]
        point = _decoded(value)
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        except ValueError as error:
            raise forms.ValidationError(NOT_A_SUBSCRIPTION) from error
        if len(point) != 65:
            raise forms.ValidationError(NOT_A_SUBSCRIPTION)
        return value

    def clean_auth(self) -> str:
        """The device's authentication secret: 16 bytes."""
        value = self.cleaned_data["auth"]
        if len(_decoded(value)) != 16:
            raise forms.ValidationError(NOT_A_SUBSCRIPTION)
        return value
