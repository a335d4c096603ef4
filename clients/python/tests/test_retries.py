"""Retries: a 429 with ``retry-after`` waits that long and sends the same request again."""

import json
import socket
import threading
import time
import unittest
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List

from .support import BASE_URL, client, new_session_body, require_server

from id_verify import IdVerify, NetworkError, RateLimitError, RetryPolicy, ServerError


class RateLimitingProxy:
    """Answers the first ``refusals`` requests ``status`` (with ``retry-after``), then forwards."""

    def __init__(
        self, upstream: str, refusals: int, retry_after: str = "1", status: int = 429
    ) -> None:
        self.seen: List[Dict[str, str]] = []
        self.times: List[float] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.seen.append({k.lower(): v for k, v in self.headers.items()})
                proxy.times.append(time.monotonic())
                if len(proxy.seen) <= refusals:
                    code = "rate_limited" if status == 429 else "service_unavailable"
                    payload = json.dumps({"status": status, "code": code}).encode("utf-8")
                    self.send_response(status)
                    self.send_header("retry-after", retry_after)
                    self.send_header("content-type", "application/problem+json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                skipped = ("host", "content-length")
                forwarded = {
                    k: v for k, v in self.headers.items() if k.lower() not in skipped
                }
                request = urllib.request.Request(
                    upstream + self.path, data=body, headers=forwarded, method=self.command
                )
                with urllib.request.urlopen(request) as answer:
                    data = answer.read()
                    self.send_response(answer.status)
                    self.send_header("content-type", answer.headers.get("content-type", ""))
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

            do_GET = do_POST = _handle

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RetriesTest(unittest.TestCase):
    def setUp(self) -> None:
        require_server(self)

    def test_a_429_is_retried_after_its_retry_after_with_the_same_key(self) -> None:
        assert BASE_URL
        proxy = RateLimitingProxy(BASE_URL, refusals=1)
        self.addCleanup(proxy.close)
        idv = client(base_url=proxy.url)
        session = idv.sessions.create(new_session_body("py_retry"))
        self.assertRegex(session["session_id"], r"^sess_")
        self.assertEqual(len(proxy.seen), 2)
        # The server's wait was honoured (1 s, not the 50 ms back-off), and the retry of the POST
        # carried the first attempt's key, which is what makes it safe.
        self.assertGreaterEqual(proxy.times[1] - proxy.times[0], 0.95)
        self.assertTrue(proxy.seen[0]["idempotency-key"])
        self.assertEqual(proxy.seen[0]["idempotency-key"], proxy.seen[1]["idempotency-key"])

    def test_a_retry_after_beyond_the_cap_fails_at_once_and_says_so(self) -> None:
        assert BASE_URL
        proxy = RateLimitingProxy(BASE_URL, refusals=1, retry_after="120")
        self.addCleanup(proxy.close)
        idv = client(base_url=proxy.url, retry=RetryPolicy(max_retries=2, max_delay=5))
        with self.assertRaises(RateLimitError) as raised:
            idv.sessions.list({"limit": 1}).page()
        self.assertEqual(len(proxy.seen), 1)
        self.assertEqual(raised.exception.retry_after, 120)
        self.assertTrue(raised.exception.retry_skipped)
        self.assertEqual(raised.exception.code, "rate_limited")

    def test_retries_are_bounded(self) -> None:
        assert BASE_URL
        proxy = RateLimitingProxy(BASE_URL, refusals=10, retry_after="0")
        self.addCleanup(proxy.close)
        idv = client(base_url=proxy.url, retry=RetryPolicy(max_retries=2))
        with self.assertRaises(RateLimitError):
            idv.sessions.get("sess_any")
        self.assertEqual(len(proxy.seen), 3)


    def test_a_post_without_an_idempotency_key_is_not_repeated(self) -> None:
        # POST /v1/webhooks/{id}/test takes no key: a second attempt could deliver twice.
        assert BASE_URL
        proxy = RateLimitingProxy(BASE_URL, refusals=1, retry_after="0", status=503)
        self.addCleanup(proxy.close)
        with self.assertRaises(ServerError) as raised:
            client(base_url=proxy.url).webhooks.test("whk_any")
        self.assertEqual(raised.exception.status, 503)
        self.assertEqual(len(proxy.seen), 1)


class NoAnswerTest(unittest.TestCase):
    def test_a_refused_connection_is_retried_within_bounds_then_raised(self) -> None:
        # A port that was free a moment ago: nothing listens there.
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        idv = IdVerify(
            "key", base_url=f"http://127.0.0.1:{port}", retry=RetryPolicy(max_retries=2)
        )
        waits: List[float] = []
        idv._transport.sleep = waits.append
        with self.assertRaises(NetworkError) as raised:
            idv.sessions.get("sess_any")
        self.assertEqual(raised.exception.status, 0)
        self.assertEqual(raised.exception.code, "network_error")
        # Two back-offs with jitter, the second ceiling twice the first: 0.25–0.5 s, then 0.5–1 s.
        self.assertEqual(len(waits), 2)
        self.assertTrue(0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0, waits)


if __name__ == "__main__":
    unittest.main()
