"""`manage.py vapid_keys`: a new VAPID key pair for Web Push (campaign/notify/push.py), printed as
the environment lines the site reads. Made once per site: a new pair leaves every device
subscribed with the old public key unreachable until its owner subscribes again."""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand
from py_vapid.utils import b64urlencode


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as COURIER_VAPID_* environment lines."

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"COURIER_VAPID_PRIVATE_KEY={b64urlencode(private)}")
        self.stdout.write(f"COURIER_VAPID_PUBLIC_KEY={b64urlencode(public)}")
