"""When a call is sent again (API.md §10: 429 always carries ``retry-after``)."""

import email.utils
import random
import time
from dataclasses import dataclass
from typing import Callable, Optional

__all__ = ["RetryPolicy", "is_retryable_status", "may_repeat", "parse_retry_after", "retry_delay"]


@dataclass(frozen=True)
class RetryPolicy:
    # Retries after the first attempt; 0 turns retrying off.
    max_retries: int = 3
    # The first back-off before jitter, in seconds; it doubles per retry.
    base_delay: float = 0.5
    # No wait is longer. A ``retry-after`` beyond it is not shortened (the server would only refuse
    # again): the call fails at once with ``retry_skipped`` set on the error.
    max_delay: float = 30.0


def is_retryable_status(status: int) -> bool:
    """Rate limited, or the server (or a proxy) failed or was unavailable."""
    return status == 429 or status >= 500


def may_repeat(method: str, has_idempotency_key: bool) -> bool:
    """A repeat must not act twice: idempotent by HTTP's rules, or deduplicated by its key."""
    return method in ("GET", "HEAD", "PUT", "DELETE", "OPTIONS") or has_idempotency_key


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``retry-after`` in seconds, from either form HTTP allows (delta seconds or an HTTP date)."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        date = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if date is None:
        return None
    return max(0.0, date.timestamp() - (time.time() if now is None else now))


def retry_delay(
    policy: RetryPolicy,
    retry: int,
    retry_after: Optional[float],
    rand: Callable[[], float] = random.random,
) -> Optional[float]:
    """The wait before retry number ``retry`` (1-based), or None when it would exceed the cap.

    The server's ``retry-after`` when it sent one; else exponential back-off with jitter (half
    fixed, half random, so clients that failed together spread out).
    """
    if retry_after is not None:
        return None if retry_after > policy.max_delay else retry_after
    ceiling = min(policy.max_delay, policy.base_delay * 2.0 ** (retry - 1))
    return ceiling / 2 + rand() * ceiling / 2
