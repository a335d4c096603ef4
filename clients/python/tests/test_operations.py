"""Every API-key operation of the OpenAPI document has a method on the client."""

import re
import unittest
from pathlib import Path

from . import support  # noqa: F401  (puts src/ on the path)

from id_verify._operations import OPERATIONS

CLIENT = Path(__file__).resolve().parent.parent / "src" / "id_verify" / "_client.py"


class OperationsTest(unittest.TestCase):
    def test_the_client_calls_every_api_key_operation(self) -> None:
        called = set(re.findall(r'"([a-z][A-Za-z]+)"', CLIENT.read_text(encoding="utf-8")))
        missing = sorted(set(OPERATIONS) - called)
        self.assertEqual(missing, [], "operations without a client method")


if __name__ == "__main__":
    unittest.main()
