"""One API call over urllib, with the retry rules of _retry.py."""

import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ._errors import NetworkError, error_from_response
from ._operations import OPERATIONS
from ._retry import RetryPolicy, is_retryable_status, may_repeat, parse_retry_after, retry_delay

__all__ = ["Transport", "Response"]

USER_AGENT = "id-verify-python/0.1.0"


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


def _query_string(query: Optional[Mapping[str, Any]]) -> str:
    pairs: List[Tuple[str, str]] = []
    for name, value in (query or {}).items():
        if value is None:
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            text = ("true" if item else "false") if isinstance(item, bool) else str(item)
            pairs.append((name, text))
    return urllib.parse.urlencode(pairs)


def _path(template: str, params: Mapping[str, str]) -> str:
    path = template
    for name, value in params.items():
        if not value:
            raise ValueError(f"{name} must be a non-empty id")
        path = path.replace("{" + name + "}", urllib.parse.quote(value, safe=""))
    if "{" in path:
        raise ValueError(f"missing path parameter in {template}")
    return path


@dataclass
class Transport:
    api_key: str
    base_url: str
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    # Seconds for one attempt (connect and read).
    timeout: float = 30.0
    sleep: Callable[[float], None] = time.sleep

    def call(
        self,
        operation_id: str,
        path_params: Optional[Mapping[str, str]] = None,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
    ) -> Response:
        """Sends ``operation_id``; answers the 2xx response or raises an ``IdVerifyError``."""
        operation = OPERATIONS[operation_id]
        url = self.base_url.rstrip("/") + _path(operation.path, path_params or {})
        encoded_query = _query_string(query)
        if encoded_query:
            url += "?" + encoded_query
        headers = {
            "x-api-key": self.api_key,
            "accept": "application/json",
            "user-agent": USER_AGENT,
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        # One key for every attempt: that is what makes the retries of a POST safe.
        if operation.takes_idempotency_key:
            headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        elif idempotency_key is not None:
            raise ValueError(f"{operation_id} takes no idempotency key")
        repeatable = may_repeat(operation.method, "idempotency-key" in headers)
        label = f"{operation.method} {operation.path}"

        attempt = 0
        while True:
            request = urllib.request.Request(
                url, data=data, headers=headers, method=operation.method
            )
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    return Response(answer.status, _headers(answer.headers), answer.read())
            except urllib.error.HTTPError as failure:
                status = failure.code
                failure_headers = _headers(failure.headers)
                failure_body = failure.read()
                failure.close()
                retry_after = parse_retry_after(failure_headers.get("retry-after"))
                due = (
                    repeatable
                    and is_retryable_status(status)
                    and attempt < self.retry.max_retries
                )
                wait = retry_delay(self.retry, attempt + 1, retry_after) if due else None
                if wait is None:
                    raise error_from_response(
                        status,
                        str(failure.reason),
                        failure_body,
                        failure_headers.get("x-request-id"),
                        retry_after,
                        retry_skipped=due and retry_after is not None,
                    ) from None
            except (urllib.error.URLError, socket.timeout, ConnectionError) as failure:
                due = repeatable and attempt < self.retry.max_retries
                wait = retry_delay(self.retry, attempt + 1, None) if due else None
                if wait is None:
                    raise NetworkError(
                        f"{label} got no answer: {failure}", status=0, code="network_error"
                    ) from failure
            attempt += 1
            self.sleep(wait)


def _headers(message: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in message.items()} if message else {}
