"""What the tests share: the server under test, given by the environment."""

import os
import sys
import unittest
from pathlib import Path

# The tests run against the source tree, with no install step.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from id_verify import IdVerify, RetryPolicy  # noqa: E402

BASE_URL = os.environ.get("IDV_TEST_BASE_URL")
API_KEY = os.environ.get("IDV_TEST_API_KEY")


def require_server(case: unittest.TestCase) -> None:
    """Skips without a server, unless the caller (the node:test runner) insists that there is one."""
    if BASE_URL and API_KEY:
        return
    if os.environ.get("IDV_TEST_REQUIRE_SERVER") == "1":
        raise AssertionError("IDV_TEST_BASE_URL and IDV_TEST_API_KEY must be set")
    case.skipTest("no server: set IDV_TEST_BASE_URL and IDV_TEST_API_KEY (a sandbox key)")


def client(**options: object) -> IdVerify:
    assert BASE_URL and API_KEY
    retry = options.pop("retry", RetryPolicy(max_retries=2, base_delay=0.05, max_delay=5))
    return IdVerify(API_KEY, base_url=str(options.pop("base_url", BASE_URL)), retry=retry)  # type: ignore[arg-type]


def new_session_body(reference: str) -> dict:
    return {
        "external_user_reference": reference,
        "country": "DEU",
        "flow": "user",
        "tier": "tier1",
    }
