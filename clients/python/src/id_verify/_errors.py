"""Typed errors: one exception class per family of failure, each carrying the RFC 9457 problem."""

from typing import Any, Dict, Optional, Type

__all__ = [
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
    "error_from_response",
]


class IdVerifyError(Exception):
    """Every failed call: an answer that is not 2xx, or no answer at all once retries are spent.

    Branch on ``code`` (stable snake_case, see ``ErrorCode``), never on ``detail``.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        detail: Optional[str] = None,
        request_id: Optional[str] = None,
        param: Optional[str] = None,
        problem: Optional[Dict[str, Any]] = None,
        retry_after: Optional[float] = None,
        retry_skipped: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        # The API's error code, or ``network_error`` / ``http_<status>`` when it sent none.
        self.code = code
        self.detail = detail
        self.request_id = request_id
        self.param = param
        # The whole problem document, members this client does not know included.
        self.problem = problem
        # Seconds the server asked to wait (``retry-after``), when it did.
        self.retry_after = retry_after
        # True when the call was worth a retry but the server's ``retry-after`` exceeded
        # ``RetryPolicy.max_delay``: wait that long yourself, or raise the cap.
        self.retry_skipped = retry_skipped


class InvalidRequestError(IdVerifyError):
    """400: the request is malformed or a parameter is invalid (``param`` names it)."""


class AuthenticationError(IdVerifyError):
    """401: the API key is missing, unknown or revoked."""


class PermissionDeniedError(IdVerifyError):
    """403: the key may not do this (capability, environment, suspended tenant)."""


class NotFoundError(IdVerifyError):
    """404: no such resource for this tenant and environment."""


class ConflictError(IdVerifyError):
    """409: the resource's state forbids it, or an idempotency key is still in progress."""


class UnprocessableError(IdVerifyError):
    """422 (and other 4xx): understood but refused, e.g. an idempotency key reused elsewhere."""


class RateLimitError(IdVerifyError):
    """429: too many requests; ``retry_after`` says when to try again."""


class ServerError(IdVerifyError):
    """5xx: the server failed or is unavailable; safe to retry later."""


class NetworkError(IdVerifyError):
    """No answer at all (refused, lost, timed out): ``status`` 0, code ``network_error``."""


_BY_STATUS: Dict[int, Type[IdVerifyError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitError,
}


def error_class_for(status: int) -> Type[IdVerifyError]:
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return UnprocessableError


def error_from_response(
    status: int,
    reason: str,
    body: bytes,
    header_request_id: Optional[str],
    retry_after: Optional[float],
    retry_skipped: bool = False,
) -> IdVerifyError:
    """The error for a non-2xx answer; a body that is not a problem still gives status and id."""
    import json

    problem: Optional[Dict[str, Any]] = None
    try:
        parsed = json.loads(body.decode("utf-8"))
        if isinstance(parsed, dict):
            problem = parsed
    except (ValueError, UnicodeDecodeError):
        pass  # A proxy's error page, say: keep the status and the request id.
    problem_ = problem or {}
    code = problem_.get("code") if isinstance(problem_.get("code"), str) else f"http_{status}"
    detail = problem_.get("detail") or problem_.get("title") or reason
    request_id = problem_.get("request_id") or header_request_id
    param = problem_.get("param") if isinstance(problem_.get("param"), str) else None
    message = f"{status} {code}: {detail}"
    if retry_skipped and retry_after is not None:
        message += (
            f" (not retried: the server asked to wait {retry_after:g} s,"
            " beyond RetryPolicy.max_delay)"
        )
    return error_class_for(status)(
        message,
        status=status,
        code=str(code),
        detail=str(detail) if detail is not None else None,
        request_id=str(request_id) if request_id is not None else None,
        param=param,
        problem=problem,
        retry_after=retry_after,
        retry_skipped=retry_skipped,
    )
