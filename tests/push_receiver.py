"""A push service and a browser, for the tests: a local HTTP server that takes Web Push
requests as a push service does, and a device that reads them with its own keys.

The device decrypts by RFC 8291 (ECDH with the sender's key, HKDF, AES-128-GCM) written
out here with the primitives of `cryptography`, not with the library Courier encrypts
with, and checks the VAPID signature (RFC 8292, ES256) against the site's public key: a
notice that reaches the test has been encrypted and signed as a browser requires.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


@dataclass
class Device:
    """A browser's side of a subscription: its P-256 key pair and authentication secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def keys(self) -> dict[str, str]:
        """The subscription's keys, as PushSubscription.toJSON() gives them."""
        return {"p256dh": b64url(self.public), "auth": b64url(self.auth_secret)}

    def decrypt(self, body: bytes) -> dict:
        """The notice in an aes128gcm body (RFC 8188 header, one record), as JSON."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20]), body[20]
        sender = body[21 : 21 + id_length]
        ciphertext = body[21 + id_length :]
        assert len(ciphertext) <= record_size, "one record"
        sender_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender)
        shared = self.key.exchange(ec.ECDH(), sender_key)
        info = b"WebPush: info\x00" + self.public + sender
        ikm = _hkdf(self.auth_secret, shared, info, 32)
        content_key = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        padded = AESGCM(content_key).decrypt(nonce, ciphertext, None)
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record's delimiter"
        return json.loads(text[:-1])


def vapid_claims(authorization: str, public_key: str) -> dict:
    """The claims of a VAPID Authorization header ("vapid t=<JWT>, k=<key>"), once its
    key is the site's and its ES256 signature verifies with it."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    return json.loads(unb64url(claims))


@dataclass
class Push:
    """One request the push service received."""

    path: str
    headers: dict[str, str]
    body: bytes
    at: float  # when it was received


class PushService:
    """A push service on 127.0.0.1: records each POST and answers the status set for its
    path (201 Created unless set)."""

    def __init__(self):
        self.received: list[Push] = []
        self.answers: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(
                    Push(self.path, dict(self.headers.items()), body, time.time())
                )
                self.send_response(service.answers.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def read(self, devices: dict[str, Device], public_key: str) -> dict[str, list[dict]]:
        """Each device's notices, by its endpoint's name: decrypted with its keys after the
        request's signature, audience and headers are checked."""
        read: dict[str, list[dict]] = {}
        for push in self.received:
            name = push.path.removeprefix("/push/")
            claims = vapid_claims(push.headers["Authorization"], public_key)
            assert claims["aud"] == self.origin
            assert push.at < claims["exp"] <= push.at + 24 * 3600
            assert claims["sub"].startswith(("mailto:", "https:"))
            assert push.headers["Content-Encoding"] == "aes128gcm"
            assert int(push.headers["TTL"]) > 0
            read.setdefault(name, []).append(devices[name].decrypt(push.body))
        return read


def subscription_of(device: Device, endpoint: str) -> dict[str, str]:
    """What a browser posts when it subscribes: its push service's endpoint and its keys."""
    return {"endpoint": endpoint, **device.keys()}


def vapid_keys() -> tuple[str, str]:
    """A site's VAPID key pair (private, public), as `manage.py vapid_keys` prints them."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), b64url(public)
