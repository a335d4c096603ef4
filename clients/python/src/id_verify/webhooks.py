"""Verifying webhook deliveries: the timestamped Standard Webhooks scheme only (docs/webhooks.md).

A delivery carries ``webhook-id``, ``webhook-timestamp`` (unix seconds) and ``webhook-signature``
(space-separated ``v1,<base64>`` entries, one per active secret): HMAC-SHA256, keyed with the
bytes the base64 after ``whsec_`` stands for, of ``{id}.{timestamp}.{raw body}``. A delivery
without those headers is refused: the older ``x-service-signature`` signs the body alone, so a
captured delivery could be replayed for ever.
"""

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
import uuid
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ._types import WebhookEvent

__all__ = [
    "WebhookVerificationError",
    "verify_webhook",
    "sign_test_webhook",
    "DEFAULT_TOLERANCE_SECONDS",
]

DEFAULT_TOLERANCE_SECONDS = 300
SECRET_PREFIX = "whsec_"

HeaderValue = Union[str, Sequence[str], None]
Headers = Union[Mapping[str, HeaderValue], Iterable[Tuple[str, str]]]


class WebhookVerificationError(Exception):
    """A delivery that must not be trusted: answer it with 400. The message holds no signature.

    ``code`` is one of ``invalid_secret``, ``missing_header``, ``invalid_header``,
    ``timestamp_too_old``, ``timestamp_in_future``, ``signature_mismatch``, ``invalid_payload``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _header(headers: Headers, name: str) -> Optional[str]:
    """A header by name, case-insensitively, from a mapping or ``(name, value)`` pairs."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    for key, value in items:
        if key.lower() != name:
            continue
        if value is None:
            return None
        text = value if isinstance(value, str) else " ".join(value)
        return text or None
    return None


def _secrets(secret: Union[str, Sequence[str]]) -> List[str]:
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets or any(
        not item.startswith(SECRET_PREFIX) or len(item) <= len(SECRET_PREFIX) for item in secrets
    ):
        raise WebhookVerificationError(
            "invalid_secret",
            "Pass the whole `whsec_…` secret shown when the endpoint was created or rotated "
            "(or several, during a rotation).",
        )
    return secrets


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret[len(SECRET_PREFIX):], validate=True)
    except binascii.Error:
        raise WebhookVerificationError(
            "invalid_secret", "The part after `whsec_` must be base64."
        ) from None


def _sign(key: bytes, webhook_id: str, timestamp: str, body: bytes) -> bytes:
    signed = f"{webhook_id}.{timestamp}.".encode("utf-8") + body
    return hmac.new(key, signed, hashlib.sha256).digest()


def verify_webhook(
    raw_body: Union[bytes, str],
    headers: Headers,
    secret: Union[str, Sequence[str]],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Checks that a delivery comes from id-verify and answers its event.

    Pass the raw body exactly as received (not re-serialised JSON), the request headers, and the
    endpoint secret, or several during a rotation. ``webhook-timestamp`` must be within
    ``tolerance_seconds`` of ``now`` (default: the current time). Raises
    ``WebhookVerificationError`` when the delivery must not be trusted. Deliveries are at least
    once: dedupe on ``webhook-id`` (the event's ``event_id``).
    """
    secrets = _secrets(secret)
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    webhook_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signature = _header(headers, "webhook-signature")
    if not webhook_id or not timestamp or not signature:
        raise WebhookVerificationError(
            "missing_header",
            "A delivery carries `webhook-id`, `webhook-timestamp` and `webhook-signature`: pass "
            "every request header through. (A delivery signed only with `x-service-signature` "
            "is refused: it can be replayed.)",
        )
    if not re.fullmatch(r"\d{1,12}", timestamp):
        raise WebhookVerificationError(
            "invalid_header", "`webhook-timestamp` must be whole unix seconds."
        )
    age = int(time.time() if now is None else now) - int(timestamp)
    if age > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_too_old",
            f"The delivery was signed {age} s ago, beyond the {tolerance_seconds} s tolerance.",
        )
    if -age > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_in_future", f"The delivery is dated {-age} s ahead: check your clock."
        )
    presented: List[bytes] = []
    for entry in signature.split(" "):
        if entry.startswith("v1,"):
            try:
                presented.append(base64.b64decode(entry[3:], validate=True))
            except binascii.Error:
                continue
    if not presented:
        raise WebhookVerificationError(
            "invalid_header", "`webhook-signature` holds no `v1,<base64>` entry."
        )
    for item in secrets:
        expected = _sign(_key(item), webhook_id, timestamp, body)
        # compare_digest takes time independent of where the bytes differ.
        if any(hmac.compare_digest(candidate, expected) for candidate in presented):
            return _event(body)
    raise WebhookVerificationError(
        "signature_mismatch",
        "No signature matches: use this endpoint's secret and the raw body exactly as received.",
    )


def _event(body: bytes) -> WebhookEvent:
    try:
        value = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        value = None
    if not isinstance(value, dict) or not isinstance(value.get("event"), str):
        raise WebhookVerificationError(
            "invalid_payload", "The signature matches but the body is not a webhook event."
        )
    return cast(WebhookEvent, value)


def sign_test_webhook(
    payload: Union[Mapping[str, object], str],
    secret: str,
    *,
    webhook_id: Optional[str] = None,
    timestamp: Optional[int] = None,
) -> Tuple[bytes, Dict[str, str]]:
    """Signs a payload as id-verify signs deliveries, for tests of your own webhook handler.

    Answers ``(body, headers)``: send the body byte for byte with those headers.
    """
    key = _key(_secrets(secret)[0])
    text = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
    body = text.encode("utf-8")
    event_id = payload.get("event_id") if isinstance(payload, Mapping) else None
    identifier = webhook_id or (event_id if isinstance(event_id, str) else None)
    identifier = identifier or f"evt_test_{uuid.uuid4().hex}"
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    digest = base64.b64encode(_sign(key, identifier, stamp, body)).decode("ascii")
    headers = {
        "content-type": "application/json",
        "webhook-id": identifier,
        "webhook-timestamp": stamp,
        "webhook-signature": f"v1,{digest}",
    }
    return body, headers
