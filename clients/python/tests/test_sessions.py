"""Sessions against a real server: create, get, list, an idempotent repeat, typed errors."""

import unittest
import uuid
from typing import Any, Dict, cast

from .support import client, new_session_body, require_server

from id_verify import IdVerifyError, InvalidRequestError, NotFoundError, Page
from id_verify._types import CreateSessionRequest, ListSessionsQuery


class SessionsTest(unittest.TestCase):
    def setUp(self) -> None:
        require_server(self)
        self.idv = client()

    def test_create_get_and_walk_the_list_across_pages(self) -> None:
        reference = f"py_{uuid.uuid4().hex[:12]}"
        created = [self.idv.sessions.create(new_session_body(reference)) for _ in range(5)]
        first = created[0]
        self.assertEqual(first["object"], "session")
        self.assertRegex(first["session_id"], r"^sess_")
        fetched = self.idv.sessions.get(first["session_id"])
        self.assertEqual(fetched["session_id"], first["session_id"])

        query: ListSessionsQuery = {"limit": 2, "external_user_reference": reference}
        page = self.idv.sessions.list(query).page()
        self.assertIsInstance(page, Page)
        self.assertEqual(len(page.data), 2)
        self.assertTrue(page.has_more)

        pages = list(self.idv.sessions.list(query).pages())
        self.assertEqual([len(p.data) for p in pages], [2, 2, 1])
        seen = [session["session_id"] for session in self.idv.sessions.list(query)]
        # Every session once, across three pages, none from another user.
        self.assertEqual(len(seen), 5)
        self.assertEqual(set(seen), {session["session_id"] for session in created})

    def test_a_repeated_create_with_one_idempotency_key_answers_the_same_session(self) -> None:
        key = f"py-test-{uuid.uuid4()}"
        body = new_session_body("py_idempotent")
        first = self.idv.sessions.create(body, idempotency_key=key)
        again = self.idv.sessions.create(body, idempotency_key=key)
        self.assertEqual(again["session_id"], first["session_id"])
        # Without a key given, each call gets its own: two sessions.
        other = self.idv.sessions.create(body)
        self.assertNotEqual(other["session_id"], first["session_id"])

    def test_an_invalid_parameter_raises_the_typed_error_with_the_problem(self) -> None:
        # A type checker refuses this body (tier is a Literal); the server's answer is under test.
        body: Dict[str, Any] = dict(new_session_body("py_invalid"))
        body["tier"] = "tier9"
        with self.assertRaises(InvalidRequestError) as raised:
            self.idv.sessions.create(cast(CreateSessionRequest, body))
        error = raised.exception
        self.assertIsInstance(error, IdVerifyError)
        self.assertEqual(error.status, 400)
        self.assertEqual(error.code, "invalid_parameter")
        self.assertEqual(error.param, "tier")
        self.assertTrue(error.detail)
        self.assertRegex(error.request_id or "", r"^req_")
        self.assertEqual((error.problem or {}).get("status"), 400)

    def test_a_missing_session_raises_not_found(self) -> None:
        with self.assertRaises(NotFoundError) as raised:
            self.idv.sessions.get("sess_doesnotexist")
        self.assertEqual(raised.exception.code, "resource_missing")
        self.assertEqual(raised.exception.status, 404)

    def test_sandbox_approval_gives_a_result_and_an_identity(self) -> None:
        session = self.idv.sessions.create(new_session_body(f"py_{uuid.uuid4().hex[:8]}"))
        self.idv.sandbox.simulate(session["session_id"], {"action": "approve"})
        result = self.idv.sessions.result(session["session_id"])
        self.assertEqual(result["decision"], "approved")
        identity_id = self.idv.sessions.get(session["session_id"])["identity_id"]
        self.assertTrue(identity_id)
        assert identity_id is not None
        self.assertEqual(self.idv.identities.get(identity_id)["identity_id"], identity_id)
        listed = self.idv.events.list({"session_id": session["session_id"]})
        events = [event["type"] for event in listed]
        self.assertIn("session.approved", events)

    def test_cancel(self) -> None:
        session = self.idv.sessions.create(new_session_body("py_cancel"))
        self.assertEqual(self.idv.sessions.cancel(session["session_id"])["status"], "cancelled")


if __name__ == "__main__":
    unittest.main()
