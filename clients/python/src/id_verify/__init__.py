"""id-verify for Python: the tenant backend client of the id-verify API (standard library only)."""

from ._client import EvidenceFile, IdVerify
from ._errors import (
    AuthenticationError,
    ConflictError,
    IdVerifyError,
    InvalidRequestError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    UnprocessableError,
)
from ._pagination import Page, PagedList
from ._retry import RetryPolicy
from ._types import ErrorCode, WebhookEvent, WebhookEventKind
from .webhooks import WebhookVerificationError, sign_test_webhook, verify_webhook

__version__ = "0.1.0"

__all__ = [
    "IdVerify",
    "EvidenceFile",
    "RetryPolicy",
    "Page",
    "PagedList",
    "IdVerifyError",
    "InvalidRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "UnprocessableError",
    "RateLimitError",
    "ServerError",
    "NetworkError",
    "ErrorCode",
    "WebhookEvent",
    "WebhookEventKind",
    "WebhookVerificationError",
    "verify_webhook",
    "sign_test_webhook",
]
