"""verify_webhook on a real delivery from the server's test endpoint, and on forged ones."""

import base64
import os
import queue
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, Tuple

from .support import client, require_server

from id_verify import WebhookVerificationError, sign_test_webhook, verify_webhook


class Receiver:
    """A tenant's webhook endpoint: records each delivery's raw body and headers, answers 200."""

    def __init__(self) -> None:
        self.deliveries: "queue.Queue[Tuple[bytes, Dict[str, str]]]" = queue.Queue()
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                deliveries.put((body, {k: v for k, v in self.headers.items()}))
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/webhooks/id-verify"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def new_secret() -> str:
    return "whsec_" + base64.b64encode(os.urandom(32)).decode("ascii")


class RealDeliveryTest(unittest.TestCase):
    def setUp(self) -> None:
        require_server(self)

    def test_a_real_test_delivery_verifies_and_its_replay_without_webhook_headers_is_refused(
        self,
    ) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        idv = client()
        endpoint = idv.webhooks.create({"url": receiver.url, "events": ["*"]})
        self.addCleanup(idv.webhooks.delete, endpoint["webhook_id"])
        result = idv.webhooks.test(endpoint["webhook_id"])
        self.assertTrue(result["delivered"])
        body, headers = receiver.deliveries.get(timeout=10)

        event = verify_webhook(body, headers, endpoint["secret"])
        self.assertEqual(event["event"], "webhook.test")
        self.assertEqual(event["event_id"], headers.get("webhook-id") or headers.get("Webhook-Id"))

        # A captured delivery replayed with its timestamped headers stripped: refused.
        replay = {k: v for k, v in headers.items() if not k.lower().startswith("webhook-")}
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, replay, endpoint["secret"])
        self.assertEqual(raised.exception.code, "missing_header")
        # Replayed whole after the tolerance: refused too.
        later = time.time() + 301
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, endpoint["secret"], now=later)
        self.assertEqual(raised.exception.code, "timestamp_too_old")
        # Another endpoint's secret, or a body changed by one byte: no match.
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, new_secret())
        self.assertEqual(raised.exception.code, "signature_mismatch")
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body + b" ", headers, endpoint["secret"])
        self.assertEqual(raised.exception.code, "signature_mismatch")


class SignedLocallyTest(unittest.TestCase):
    """The scheme's edges, signed by sign_test_webhook (checked against the server above)."""

    def test_rotation_future_timestamps_and_bad_secrets(self) -> None:
        old, current = new_secret(), new_secret()
        payload = {"event": "session.approved", "event_id": "evt_1", "session_id": "sess_1"}
        body, headers = sign_test_webhook(payload, current)
        self.assertEqual(verify_webhook(body, headers, [old, current])["event_id"], "evt_1")
        self.assertEqual(headers["webhook-id"], "evt_1")
        ahead = int(time.time()) + 600
        future, future_headers = sign_test_webhook(payload, current, timestamp=ahead)
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(future, future_headers, current)
        self.assertEqual(raised.exception.code, "timestamp_in_future")
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, "not-a-secret")
        self.assertEqual(raised.exception.code, "invalid_secret")
        # Header names in any case, values as lists (as some frameworks give them).
        mixed = {k.title(): [v] for k, v in headers.items()}
        self.assertEqual(verify_webhook(body, mixed, current)["event"], "session.approved")

    def test_a_signed_body_that_is_not_an_event_is_refused(self) -> None:
        secret = new_secret()
        body, headers = sign_test_webhook("[1, 2]", secret)
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, secret)
        self.assertEqual(raised.exception.code, "invalid_payload")


if __name__ == "__main__":
    unittest.main()
