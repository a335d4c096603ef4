"""The client: one attribute per resource, one method per API-key operation of the document.

Each method names its ``operationId``; method and path come from the generated ``_operations.py``,
so a route the document moves moves here too (and a test checks every API-key operation is here).
"""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, cast

from ._pagination import PagedList
from ._retry import RetryPolicy
from ._transport import Transport
from ._types import (
    AssignSessionRequest,
    CreateReverificationRequest,
    CreateSessionRequest,
    CreateWebhookRequest,
    DeletedWebhook,
    DocumentData,
    Event,
    EvidenceUpload,
    ExportSessionsQuery,
    GetStatsQuery,
    Identity,
    ListEventsQuery,
    ListIdentitiesQuery,
    ListReviewQueueQuery,
    ListSessionsQuery,
    ListWebhookDeliveriesQuery,
    ListWebhooksQuery,
    PutWatchlistRequest,
    ReverificationRequest,
    ReviewClaim,
    ReviewClaimRelease,
    ReviewQueueItem,
    ReviewSessionRequest,
    RotateWebhookSecretRequest,
    Session,
    SessionResult,
    SimulateSessionRequest,
    Stats,
    Tenant,
    UpdateTenantRequest,
    UpdateWebhookRequest,
    Watchlist,
    Webhook,
    WebhookDelivery,
    WebhookTestResult,
    WebhookWithSecret,
)

__all__ = ["IdVerify", "EvidenceFile"]

@dataclass(frozen=True)
class EvidenceFile:
    content_type: str
    data: bytes


def _json(transport: Transport, operation_id: str, *args: Any, **kwargs: Any) -> Any:
    return transport.call(operation_id, *args, **kwargs).json()


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def _list(self, operation_id: str, path: Dict[str, str], query: Any, id_field: str) -> Any:
        return PagedList(
            cast(Dict[str, Any], query or {}),
            lambda page_query: cast(
                Dict[str, Any], _json(self._t, operation_id, path, query=page_query)
            ),
            lambda item: cast(str, item[id_field]),
        )


class ReviewClaims(_Resource):
    def get(self, session_id: str) -> ReviewClaim:
        """``GET /v1/sessions/{id}/claim``: who reviews the session now."""
        return cast(ReviewClaim, _json(self._t, "getReviewClaim", {"id": session_id}))

    def release(self, session_id: str) -> ReviewClaimRelease:
        """``DELETE /v1/sessions/{id}/claim``."""
        return cast(ReviewClaimRelease, _json(self._t, "releaseReviewClaim", {"id": session_id}))


class Evidence(_Resource):
    def list(self, session_id: str) -> Dict[str, Any]:
        """``GET /v1/sessions/{id}/evidence``: ``{"object": "list", "data": [EvidenceUpload]}``."""
        return cast(Dict[str, Any], _json(self._t, "listSessionEvidence", {"id": session_id}))

    def uploads(self, session_id: str) -> List[EvidenceUpload]:
        """The uploads of ``list`` alone."""
        return cast(List[EvidenceUpload], self.list(session_id)["data"])

    def download(self, session_id: str, upload_id: str) -> EvidenceFile:
        """``GET /v1/sessions/{id}/evidence/{upload_id}``: the image itself."""
        answer = self._t.call("getSessionEvidence", {"id": session_id, "upload_id": upload_id})
        content_type = answer.headers.get("content-type", "application/octet-stream")
        return EvidenceFile(content_type, answer.body)


class Sessions(_Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.claim = ReviewClaims(transport)
        self.evidence = Evidence(transport)

    def create(
        self, body: CreateSessionRequest, *, idempotency_key: Optional[str] = None
    ) -> Session:
        """``POST /v1/sessions``. A key is generated unless given; retries reuse it."""
        return cast(
            Session, _json(self._t, "createSession", body=body, idempotency_key=idempotency_key)
        )

    def get(self, session_id: str) -> Session:
        return cast(Session, _json(self._t, "getSession", {"id": session_id}))

    def list(self, query: Optional[ListSessionsQuery] = None) -> "PagedList[Session]":
        """``GET /v1/sessions``, newest first; iterate it to walk every page."""
        return cast("PagedList[Session]", self._list("listSessions", {}, query, "session_id"))

    def cancel(self, session_id: str) -> Session:
        return cast(Session, _json(self._t, "cancelSession", {"id": session_id}))

    def submit(self, session_id: str, *, idempotency_key: Optional[str] = None) -> Session:
        return cast(
            Session,
            _json(self._t, "submitSession", {"id": session_id}, idempotency_key=idempotency_key),
        )

    def result(self, session_id: str) -> SessionResult:
        return cast(SessionResult, _json(self._t, "getSessionResult", {"id": session_id}))

    def refresh_verify_url(
        self, session_id: str, *, idempotency_key: Optional[str] = None
    ) -> Session:
        return cast(
            Session,
            _json(
                self._t, "refreshVerifyUrl", {"id": session_id}, idempotency_key=idempotency_key
            ),
        )

    def review(
        self,
        session_id: str,
        body: ReviewSessionRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> Session:
        """``POST /v1/sessions/{id}/review``: decides a ``review_required`` session."""
        return cast(
            Session,
            _json(
                self._t,
                "reviewSession",
                {"id": session_id},
                body=body,
                idempotency_key=idempotency_key,
            ),
        )

    def assign(self, session_id: str, body: AssignSessionRequest) -> ReviewClaim:
        return cast(
            ReviewClaim, _json(self._t, "assignSession", {"id": session_id}, body=body)
        )

    def document_data(self, session_id: str) -> DocumentData:
        return cast(DocumentData, _json(self._t, "getSessionDocumentData", {"id": session_id}))

    def export(self, query: Optional[ExportSessionsQuery] = None) -> str:
        """``GET /v1/exports/sessions``: the sessions ``list`` would give, as CSV text."""
        answer = self._t.call("exportSessions", query=cast(Dict[str, Any], query or {}))
        return answer.body.decode("utf-8")


class ReviewQueue(_Resource):
    def list(self, query: Optional[ListReviewQueueQuery] = None) -> "PagedList[ReviewQueueItem]":
        """``GET /v1/review-queue``: sessions waiting for a person, oldest first."""
        return cast(
            "PagedList[ReviewQueueItem]",
            self._list("listReviewQueue", {}, query, "session_id"),
        )


class Sandbox(_Resource):
    def simulate(
        self,
        session_id: str,
        body: SimulateSessionRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> Session:
        """``POST /v1/sandbox/sessions/{id}/simulate``: sandbox keys only."""
        return cast(
            Session,
            _json(
                self._t,
                "simulateSession",
                {"id": session_id},
                body=body,
                idempotency_key=idempotency_key,
            ),
        )


class Identities(_Resource):
    def get(self, identity_id: str) -> Identity:
        return cast(Identity, _json(self._t, "getIdentity", {"id": identity_id}))

    def list(self, query: Optional[ListIdentitiesQuery] = None) -> "PagedList[Identity]":
        return cast("PagedList[Identity]", self._list("listIdentities", {}, query, "identity_id"))


class Reverification(_Resource):
    def create(
        self,
        identity_id: str,
        body: CreateReverificationRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReverificationRequest:
        return cast(
            ReverificationRequest,
            _json(
                self._t,
                "createReverificationRequest",
                {"identity_id": identity_id},
                body=body,
                idempotency_key=idempotency_key,
            ),
        )

    def get_open(self, identity_id: str) -> ReverificationRequest:
        """The open request (``NotFoundError`` when there is none)."""
        return cast(
            ReverificationRequest,
            _json(self._t, "getOpenReverificationRequest", {"identity_id": identity_id}),
        )


class WebhookDeliveries(_Resource):
    def list(
        self, webhook_id: str, query: Optional[ListWebhookDeliveriesQuery] = None
    ) -> "PagedList[WebhookDelivery]":
        return cast(
            "PagedList[WebhookDelivery]",
            self._list("listWebhookDeliveries", {"id": webhook_id}, query, "delivery_id"),
        )

    def retry(
        self, webhook_id: str, delivery_id: str, *, idempotency_key: Optional[str] = None
    ) -> WebhookDelivery:
        return cast(
            WebhookDelivery,
            _json(
                self._t,
                "retryWebhookDelivery",
                {"id": webhook_id, "delivery_id": delivery_id},
                idempotency_key=idempotency_key,
            ),
        )


class Webhooks(_Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.deliveries = WebhookDeliveries(transport)

    def create(
        self, body: CreateWebhookRequest, *, idempotency_key: Optional[str] = None
    ) -> WebhookWithSecret:
        """``POST /v1/webhooks``: the answer holds the ``whsec_`` secret, shown only once."""
        return cast(
            WebhookWithSecret,
            _json(self._t, "createWebhook", body=body, idempotency_key=idempotency_key),
        )

    def get(self, webhook_id: str) -> Webhook:
        return cast(Webhook, _json(self._t, "getWebhook", {"id": webhook_id}))

    def list(self, query: Optional[ListWebhooksQuery] = None) -> "PagedList[Webhook]":
        return cast("PagedList[Webhook]", self._list("listWebhooks", {}, query, "webhook_id"))

    def update(
        self,
        webhook_id: str,
        body: UpdateWebhookRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> Webhook:
        return cast(
            Webhook,
            _json(
                self._t,
                "updateWebhook",
                {"id": webhook_id},
                body=body,
                idempotency_key=idempotency_key,
            ),
        )

    def delete(self, webhook_id: str) -> DeletedWebhook:
        return cast(DeletedWebhook, _json(self._t, "deleteWebhook", {"id": webhook_id}))

    def rotate_secret(
        self,
        webhook_id: str,
        body: Optional[RotateWebhookSecretRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> WebhookWithSecret:
        return cast(
            WebhookWithSecret,
            _json(
                self._t,
                "rotateWebhookSecret",
                {"id": webhook_id},
                body=body,
                idempotency_key=idempotency_key,
            ),
        )

    def test(self, webhook_id: str) -> WebhookTestResult:
        """``POST /v1/webhooks/{id}/test``: sends a signed ``webhook.test`` delivery now."""
        return cast(WebhookTestResult, _json(self._t, "testWebhook", {"id": webhook_id}))


class Events(_Resource):
    def get(self, event_id: str) -> Event:
        return cast(Event, _json(self._t, "getEvent", {"id": event_id}))

    def list(self, query: Optional[ListEventsQuery] = None) -> "PagedList[Event]":
        return cast("PagedList[Event]", self._list("listEvents", {}, query, "event_id"))


class WatchlistResource(_Resource):
    def get(self) -> Watchlist:
        return cast(Watchlist, _json(self._t, "getWatchlist"))

    def put(
        self, body: PutWatchlistRequest, *, idempotency_key: Optional[str] = None
    ) -> Watchlist:
        return cast(
            Watchlist,
            _json(self._t, "putWatchlist", body=body, idempotency_key=idempotency_key),
        )


class TenantResource(_Resource):
    def get(self) -> Tenant:
        return cast(Tenant, _json(self._t, "getTenant"))

    def update(self, body: UpdateTenantRequest) -> Tenant:
        return cast(Tenant, _json(self._t, "updateTenant", body=body))


class StatsResource(_Resource):
    def get(self, query: Optional[GetStatsQuery] = None) -> Stats:
        return cast(Stats, _json(self._t, "getStats", query=cast(Dict[str, Any], query or {})))


class IdVerify:
    """The id-verify API for a tenant's backend, authenticated with an API key.

    >>> idv = IdVerify(os.environ["IDV_API_KEY"], base_url="https://idv.example.com")
    >>> session = idv.sessions.create({"external_user_reference": "user_42", "country": "DEU",
    ...                                "flow": "user", "tier": "tier1"})
    """

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str,
        retry: Optional[RetryPolicy] = None,
        timeout: float = 30.0,
    ) -> None:
        if not api_key:
            raise ValueError("api_key is required: a key from the console's API keys page")
        if not base_url.startswith(("http://", "https://")):
            raise ValueError("base_url must be your id-verify server's http(s) URL")
        # The operation paths start with /v1: accept a base URL given with or without it.
        root = base_url.rstrip("/")
        root = root[: -len("/v1")] if root.endswith("/v1") else root
        self._transport = Transport(api_key, root, retry or RetryPolicy(), timeout)
        self.sessions = Sessions(self._transport)
        self.review_queue = ReviewQueue(self._transport)
        self.sandbox = Sandbox(self._transport)
        self.identities = Identities(self._transport)
        self.reverification = Reverification(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.events = Events(self._transport)
        self.watchlist = WatchlistResource(self._transport)
        self.tenant = TenantResource(self._transport)
        self.stats = StatsResource(self._transport)
