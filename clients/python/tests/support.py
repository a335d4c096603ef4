"""What the tests share: the server under test, given by the environment."""

import os
import sys
import unittest
from pathlib import Path
from typing import Optional

# The tests run against the source tree, with no install step.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from id_verify import IdVerify, RetryPolicy  # noqa: E402
from id_verify._types import CreateSessionRequest  # noqa: E402

BASE_URL = os.environ.get("IDV_TEST_BASE_URL")
API_KEY = os.environ.get("IDV_TEST_API_KEY")


def require_server(case: unittest.TestCase) -> None:
    """Skips without a server, unless the caller (the node:test runner) insists on one."""
    if BASE_URL and API_KEY:
        return
    if os.environ.get("IDV_TEST_REQUIRE_SERVER") == "1":
        raise AssertionError("IDV_TEST_BASE_URL and IDV_TEST_API_KEY must be set")
    case.skipTest("no server: set IDV_TEST_BASE_URL and IDV_TEST_API_KEY (a sandbox key)")


def client(base_url: Optional[str] = None, retry: Optional[RetryPolicy] = None) -> IdVerify:
    """A client of the server under test; short back-offs keep the suite quick."""
    assert BASE_URL and API_KEY
    policy = retry or RetryPolicy(max_retries=2, base_delay=0.05, max_delay=5)
    return IdVerify(API_KEY, base_url=base_url or BASE_URL, retry=policy)


def new_session_body(reference: str) -> CreateSessionRequest:
    return {
        "external_user_reference": reference,
        "country": "DEU",
        "flow": "user",
        "tier": "tier1",
    }
