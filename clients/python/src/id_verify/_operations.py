# Generated from the server's OpenAPI document by `npm run generate:python-client`
# (scripts/generate-python-client-types.ts). Do not edit: a test fails when this file
# drifts from the document.
"""Every operation an API key may call: its method, path template and Idempotency-Key support."""

from typing import Dict, NamedTuple


class Operation(NamedTuple):
    method: str
    # With `{name}` placeholders for the path parameters.
    path: str
    # Whether the server deduplicates it by `Idempotency-Key` (then a retry cannot act twice).
    takes_idempotency_key: bool


OPERATIONS: Dict[str, Operation] = {
    "getStats": Operation("GET", "/v1/stats", False),
    "getTenant": Operation("GET", "/v1/tenant", False),
    "updateTenant": Operation("PATCH", "/v1/tenant", False),
    "createSession": Operation("POST", "/v1/sessions", True),
    "listSessions": Operation("GET", "/v1/sessions", False),
    "getSession": Operation("GET", "/v1/sessions/{id}", False),
    "cancelSession": Operation("DELETE", "/v1/sessions/{id}", False),
    "submitSession": Operation("POST", "/v1/sessions/{id}/submit", True),
    "getSessionResult": Operation("GET", "/v1/sessions/{id}/result", False),
    "refreshVerifyUrl": Operation("POST", "/v1/sessions/{id}/verify-url", True),
    "reviewSession": Operation("POST", "/v1/sessions/{id}/review", True),
    "listReviewQueue": Operation("GET", "/v1/review-queue", False),
    "getReviewClaim": Operation("GET", "/v1/sessions/{id}/claim", False),
    "releaseReviewClaim": Operation("DELETE", "/v1/sessions/{id}/claim", False),
    "assignSession": Operation("PUT", "/v1/sessions/{id}/assignment", False),
    "exportSessions": Operation("GET", "/v1/exports/sessions", False),
    "getSessionDocumentData": Operation("GET", "/v1/sessions/{id}/document-data", False),
    "simulateSession": Operation("POST", "/v1/sandbox/sessions/{id}/simulate", True),
    "listIdentities": Operation("GET", "/v1/identities", False),
    "getIdentity": Operation("GET", "/v1/identities/{id}", False),
    "createReverificationRequest": Operation(
        "POST", "/v1/identities/{identity_id}/reverification-requests", True
    ),
    "getOpenReverificationRequest": Operation(
        "GET", "/v1/identities/{identity_id}/reverification-request", False
    ),
    "getWatchlist": Operation("GET", "/v1/watchlist", False),
    "putWatchlist": Operation("PUT", "/v1/watchlist", True),
    "createWebhook": Operation("POST", "/v1/webhooks", True),
    "listWebhooks": Operation("GET", "/v1/webhooks", False),
    "getWebhook": Operation("GET", "/v1/webhooks/{id}", False),
    "updateWebhook": Operation("PATCH", "/v1/webhooks/{id}", True),
    "deleteWebhook": Operation("DELETE", "/v1/webhooks/{id}", False),
    "rotateWebhookSecret": Operation("POST", "/v1/webhooks/{id}/rotate-secret", True),
    "testWebhook": Operation("POST", "/v1/webhooks/{id}/test", False),
    "listWebhookDeliveries": Operation("GET", "/v1/webhooks/{id}/deliveries", False),
    "retryWebhookDelivery": Operation(
        "POST", "/v1/webhooks/{id}/deliveries/{delivery_id}/retry", True
    ),
    "listEvents": Operation("GET", "/v1/events", False),
    "getEvent": Operation("GET", "/v1/events/{id}", False),
    "listSessionEvidence": Operation("GET", "/v1/sessions/{id}/evidence", False),
    "getSessionEvidence": Operation("GET", "/v1/sessions/{id}/evidence/{upload_id}", False),
}
