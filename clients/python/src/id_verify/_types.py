# Generated from the server's OpenAPI document by `npm run generate:python-client`
# (scripts/generate-python-client-types.ts). Do not edit: a test fails when this file
# drifts from the document.
"""The API's types: every schema of its OpenAPI document as a TypedDict or an alias."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

__all__ = [
    "SessionEventEvent",
    "SessionEventStatus",
    "SessionEvent",
    "IdentityEventEvent",
    "IdentityEvent",
    "ReverificationCompletedEventStatus",
    "ReverificationCompletedEvent",
    "WebhookTestEvent",
    "UserRole",
    "User",
    "ConsoleLoginResponseCapabilitiesItem",
    "ConsoleLoginResponse",
    "SecondFactorChallengeMethodsItem",
    "PasskeyRequestOptions",
    "SecondFactorChallenge",
    "ErrorCode",
    "ProblemErrorsItem",
    "Problem",
    "ConsoleLoginRequest",
    "SecondFactorLoginRequest",
    "Passkey",
    "SecondFactors",
    "TotpEnrolment",
    "TotpEnrolled",
    "ConfirmTotpRequest",
    "PasskeyCreationOptions",
    "PasskeyRegistration",
    "PasskeyRegistered",
    "RegisterPasskeyRequest",
    "RecoveryCodes",
    "MeTenant",
    "MeCapabilitiesItem",
    "Me",
    "ApiKey",
    "ApiKeyList",
    "CreatedApiKey",
    "CreateApiKeyRequest",
    "TenantUserRole",
    "TenantUser",
    "TenantUserList",
    "InvitedUser",
    "InviteUserRequestRole",
    "InviteUserRequest",
    "UpdateUserRequestRole",
    "UpdateUserRequest",
    "AcceptInvitationRequest",
    "AuditEventAction",
    "AuditEventActorType",
    "AuditEventActor",
    "AuditEventTargetType",
    "AuditEventTarget",
    "AuditEvent",
    "AuditEventList",
    "StatsSessionsByStatus",
    "StatsSessions",
    "StatsPerDayItem",
    "StatsReviewQueue",
    "Stats",
    "Branding",
    "TenantDocumentAuthenticity",
    "Tenant",
    "UpdateTenantRequestDocumentAuthenticity",
    "UpdateTenantRequest",
    "SessionStatus",
    "SessionRequiredStepsItem",
    "SessionStepsItemStep",
    "SessionStepsItem",
    "SessionLastError",
    "Session",
    "CreateSessionRequestSandboxOutcome",
    "CreateSessionRequestSandbox",
    "CreateSessionRequest",
    "SessionList",
    "SessionResultStatus",
    "SessionResultDecision",
    "SessionResultReasonsItem",
    "SessionResultChecksItemType",
    "SessionResultChecksItemStatus",
    "SessionResultChecksItem",
    "SessionResult",
    "ReviewSessionRequestReasonCodesItem",
    "ReviewSessionRequest",
    "ReviewClaim",
    "ReviewQueueItem",
    "ReviewQueue",
    "ReviewClaimRelease",
    "AssignSessionRequest",
    "DocumentDataFieldsItem",
    "DocumentDataSourcesItemValues",
    "DocumentDataSourcesItem",
    "DocumentDataDisagreementsItem",
    "DocumentData",
    "SimulateSessionRequestAction",
    "SimulateSessionRequestReasonCodesItem",
    "SimulateSessionRequest",
    "IdentityStatus",
    "IdentityAttributesDocument",
    "IdentityAttributes",
    "IdentityBusiness",
    "Identity",
    "IdentityList",
    "ReverificationRequestReasonCode",
    "ReverificationRequestStatus",
    "ReverificationRequestRequiredStepsItem",
    "ReverificationRequest",
    "CreateReverificationRequestReasonCode",
    "CreateReverificationRequest",
    "WatchlistEntry",
    "Watchlist",
    "PutWatchlistRequest",
    "Webhook",
    "WebhookWithSecret",
    "CreateWebhookRequest",
    "WebhookList",
    "UpdateWebhookRequest",
    "DeletedWebhook",
    "RotateWebhookSecretRequest",
    "WebhookTestResultStatusClass",
    "WebhookTestResult",
    "WebhookDeliveryStatus",
    "WebhookAttemptStatus",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "Event",
    "EventList",
    "EvidenceUploadQuality",
    "EvidenceUpload",
    "VerifySessionStatus",
    "VerifySessionRequiredStepsItem",
    "VerifySessionStepsItemStep",
    "VerifySessionStepsItem",
    "VerifySessionTenantBranding",
    "VerifySessionTenant",
    "VerifySession",
    "VerifyPrefillIdDocumentDetails",
    "VerifyPrefillIdDocument",
    "VerifyPrefill",
    "VerifySessionView",
    "VerifyConsentSessionStatus",
    "VerifyConsent",
    "VerifyConsentRequest",
    "VerifyUploadStep",
    "VerifyUploadDocumentType",
    "VerifyUploadQualityIssuesItem",
    "VerifyUploadQuality",
    "VerifyUploadSessionStatus",
    "VerifyUploadReading",
    "VerifyUpload",
    "VerifyDetailsStep",
    "VerifyDetailsMrz",
    "VerifyDetailsReading",
    "VerifyDetails",
    "VerifyDetailsRequest1",
    "VerifyDetailsRequest2",
    "VerifyDetailsRequest",
    "LivenessChallengeActionsItem",
    "LivenessChallenge",
    "VerifyLivenessAttemptReason",
    "VerifyLivenessAttemptQualityIssuesItem",
    "VerifyLivenessAttemptAction",
    "VerifyLivenessAttemptSessionStatus",
    "VerifyLivenessAttempt",
    "VerifyCompleteRequestSandboxOutcome",
    "VerifyCompleteRequestSandbox",
    "VerifyCompleteRequest",
    "VerifyHandoff",
    "GetStatsQuery",
    "ListSessionsQueryStatus",
    "ListSessionsQueryReasonCode",
    "ListSessionsQuery",
    "ListReviewQueueQueryReasonCode",
    "ListReviewQueueQuery",
    "ExportSessionsQueryStatus",
    "ExportSessionsQueryReasonCode",
    "ExportSessionsQuery",
    "ListIdentitiesQuery",
    "ListWebhooksQuery",
    "ListWebhookDeliveriesQueryStatus",
    "ListWebhookDeliveriesQuery",
    "ListEventsQuery",
    "WebhookEvent",
    "WebhookEventKind",
]


SessionEventEvent = Literal[
    "session.created",
    "session.collecting",
    "session.processing",
    "session.approved",
    "session.rejected",
    "session.review_required",
    "session.expired",
    "session.cancelled",
    "session.resubmission_requested",
]


SessionEventStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


# A session changed status. Fetch the session for its result.
class SessionEvent(TypedDict):
    event: "SessionEventEvent"
    # Unique per event, the same on every retry and equal to `webhook-id`: dedupe on it.
    event_id: str
    # When the event happened (ISO 8601).
    created_at: str
    environment: Literal["sandbox", "production"]
    session_id: str
    # Null until the session made an identity.
    identity_id: Optional[str]
    # Null until the session is decided.
    decision: Optional[str]
    # The session status after the change.
    status: "SessionEventStatus"


IdentityEventEvent = Literal["identity.created", "identity.updated"]


# An approved session created or updated an identity.
class IdentityEvent(TypedDict):
    event: "IdentityEventEvent"
    # Unique per event, the same on every retry and equal to `webhook-id`: dedupe on it.
    event_id: str
    # When the event happened (ISO 8601).
    created_at: str
    environment: Literal["sandbox", "production"]
    identity_id: str
    # The approved session that created or updated it.
    session_id: str


ReverificationCompletedEventStatus = Literal[
    "pending",
    "in_progress",
    "review_required",
    "approved",
    "rejected",
    "expired",
    "cancelled",
]


# A re-verification request reached its end.
class ReverificationCompletedEvent(TypedDict):
    event: Literal["reverification.completed"]
    # Unique per event, the same on every retry and equal to `webhook-id`: dedupe on it.
    event_id: str
    # When the event happened (ISO 8601).
    created_at: str
    environment: Literal["sandbox", "production"]
    identity_id: str
    session_id: str
    reverification_request_id: str
    # The request’s final status.
    status: "ReverificationCompletedEventStatus"
    decision: Optional[str]


# Sent by `POST /v1/webhooks/{id}/test` only.
class WebhookTestEvent(TypedDict):
    event: Literal["webhook.test"]
    # Unique per event, the same on every retry and equal to `webhook-id`: dedupe on it.
    event_id: str
    # When the event happened (ISO 8601).
    created_at: str
    environment: Literal["sandbox", "production"]
    # The endpoint the test was sent to.
    webhook_id: str


UserRole = Literal["tenant_admin", "developer", "reviewer", "viewer"]


class User(TypedDict):
    object: Literal["user"]
    user_id: str
    email: str
    role: "UserRole"
    tenant_id: str


ConsoleLoginResponseCapabilitiesItem = Literal[
    "sessions:create",
    "sessions:cancel",
    "sessions:read",
    "sessions:review",
    "sessions:assign",
    "identities:read",
    "identities:read_pii",
    "reverifications:create",
    "webhooks:read",
    "webhooks:write",
    "api_keys:write",
    "users:write",
    "tenant:write",
    "audit:read",
    "sandbox:simulate",
    "watchlist:read",
    "watchlist:write",
]


class _ConsoleLoginResponseRequired(TypedDict):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    user: "User"
    capabilities: List["ConsoleLoginResponseCapabilitiesItem"]
    default_path: str


class ConsoleLoginResponse(_ConsoleLoginResponseRequired, total=False):
    # Present when the tenant requires a second factor and the user has none: this token reaches
    # only the enrolment operations (`/v1/me/second-factors…`) and logout; enrolling one returns a
    # full token.
    second_factor_enrolment_required: Literal[True]


SecondFactorChallengeMethodsItem = Literal["totp", "recovery_code", "passkey"]


# Options for `navigator.credentials.get()` (WebAuthn `PublicKeyCredentialRequestOptionsJSON`): the
# challenge and the allowed credentials.
PasskeyRequestOptions = Optional[Dict[str, Any]]


class SecondFactorChallenge(TypedDict):
    second_factor_required: Literal[True]
    # Send it to `POST /v1/console/login/second-factor` with the code or the passkey assertion.
    challenge_token: str
    expires_in: int
    methods: List["SecondFactorChallengeMethodsItem"]
    passkey_options: "PasskeyRequestOptions"


# A stable snake_case error code: branch on it. New codes may be added; treat an unknown one by its
# status.
ErrorCode = Literal[
    "invalid_json",
    "malformed_request",
    "invalid_parameter",
    "missing_parameter",
    "unknown_parameter",
    "invalid_cursor",
    "ambiguous_credentials",
    "sandbox_parameter_in_production",
    "authentication_required",
    "invalid_api_key",
    "invalid_token",
    "token_expired",
    "invalid_credentials",
    "invalid_second_factor",
    "insufficient_capability",
    "tenant_suspended",
    "user_disabled",
    "sandbox_only",
    "browser_request_forbidden",
    "second_factor_required",
    "origin_not_allowed",
    "resource_missing",
    "route_not_found",
    "no_reverification_request",
    "method_not_allowed",
    "request_timeout",
    "invalid_state_transition",
    "review_claimed",
    "steps_incomplete",
    "reverification_already_pending",
    "webhook_disabled",
    "idempotency_request_in_progress",
    "upload_limit_reached",
    "last_tenant_admin",
    "email_in_use",
    "last_second_factor",
    "session_expired",
    "verify_token_expired",
    "invitation_expired",
    "login_challenge_expired",
    "payload_too_large",
    "unsupported_media_type",
    "request_headers_too_large",
    "idempotency_key_reused",
    "webhook_url_not_allowed",
    "unprocessable_image",
    "document_type_mismatch",
    "biometric_reference_missing",
    "rate_limited",
    "too_many_attempts",
    "internal_error",
    "service_unavailable",
]


class ProblemErrorsItem(TypedDict):
    param: str
    code: str
    detail: str


class _ProblemRequired(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    instance: str
    code: "ErrorCode"
    request_id: str


# RFC 9457 problem details. Branch on `code`.
class Problem(_ProblemRequired, total=False):
    param: str
    errors: List["ProblemErrorsItem"]


class _ConsoleLoginRequestRequired(TypedDict):
    email: str
    password: str


class ConsoleLoginRequest(_ConsoleLoginRequestRequired, total=False):
    # The tenant to log in to. Needed only when this e-mail and password open accounts in several
    # tenants (the answer is then 400 `missing_parameter` on `tenant_id` with `tenants`, the
    # choice).
    tenant_id: str


class _SecondFactorLoginRequestRequired(TypedDict):
    challenge_token: str


class SecondFactorLoginRequest(_SecondFactorLoginRequestRequired, total=False):
    # The 6-digit code of the authenticator app.
    totp_code: str
    # One of the recovery codes; works once.
    recovery_code: str
    # The assertion (`PublicKeyCredential.toJSON()`) of `navigator.credentials.get()`.
    passkey: Dict[str, Any]


class Passkey(TypedDict):
    object: Literal["passkey"]
    passkey_id: str
    name: str
    # The passkey is synced (for example by a password manager).
    backed_up: bool
    created_at: str
    last_used_at: Optional[str]


class SecondFactors(TypedDict):
    object: Literal["second_factors"]
    # An authenticator app is enrolled.
    totp: bool
    passkeys: List["Passkey"]
    recovery_codes_remaining: int
    required_by_tenant: bool


class TotpEnrolment(TypedDict):
    object: Literal["totp_enrolment"]
    enrolment_id: str
    # Base32, for typing into an app that cannot scan.
    secret: str
    # The `otpauth://totp/…` URI to show as a QR code.
    otpauth_uri: str
    expires_in: int


class TotpEnrolled(TypedDict):
    object: Literal["totp_enrolled"]
    # Ten single-use recovery codes, shown this once, when the user had none left; null when their
    # earlier codes still stand.
    recovery_codes: Optional[List[str]]
    # A new access token carrying the second factor just proved, when the request was made with one
    # that proved none (password only, or restricted to enrolment; that one is revoked); null
    # otherwise.
    login: Optional["ConsoleLoginResponse"]


class ConfirmTotpRequest(TypedDict):
    enrolment_id: str
    # The 6-digit code the app shows now.
    code: str


# Options for `navigator.credentials.create()` (WebAuthn `PublicKeyCredentialCreationOptionsJSON`),
# attestation `none`.
PasskeyCreationOptions = Dict[str, Any]


class PasskeyRegistration(TypedDict):
    object: Literal["passkey_registration"]
    registration_id: str
    options: "PasskeyCreationOptions"


class PasskeyRegistered(TypedDict):
    object: Literal["passkey_registered"]
    passkey: "Passkey"
    # Ten single-use recovery codes, shown this once, when the user had none left; null when their
    # earlier codes still stand.
    recovery_codes: Optional[List[str]]
    # A new access token carrying the second factor just proved, when the request was made with one
    # that proved none (password only, or restricted to enrolment; that one is revoked); null
    # otherwise.
    login: Optional["ConsoleLoginResponse"]


class RegisterPasskeyRequest(TypedDict):
    registration_id: str
    # How the passkey is listed, e.g. “Laptop”.
    name: str
    # The credential (`PublicKeyCredential.toJSON()`) of `navigator.credentials.create()`.
    response: Dict[str, Any]


class RecoveryCodes(TypedDict):
    object: Literal["recovery_codes"]
    recovery_codes: List[str]


class MeTenant(TypedDict):
    object: Literal["tenant"]
    tenant_id: str
    name: str
    status: str


MeCapabilitiesItem = Literal[
    "sessions:create",
    "sessions:cancel",
    "sessions:read",
    "sessions:review",
    "sessions:assign",
    "identities:read",
    "identities:read_pii",
    "reverifications:create",
    "webhooks:read",
    "webhooks:write",
    "api_keys:write",
    "users:write",
    "tenant:write",
    "audit:read",
    "sandbox:simulate",
    "watchlist:read",
    "watchlist:write",
]


class Me(TypedDict):
    object: Literal["me"]
    user: "User"
    tenant: "MeTenant"
    capabilities: List["MeCapabilitiesItem"]
    default_path: str
    environment: Literal["sandbox", "production"]


class ApiKey(TypedDict):
    object: Literal["api_key"]
    api_key_id: str
    name: str
    environment: Literal["sandbox", "production"]
    prefix: str
    last4: str
    created_at: str
    revoked_at: Optional[str]
    last_used_at: Optional[str]


class ApiKeyList(TypedDict):
    object: Literal["list"]
    data: List["ApiKey"]
    has_more: bool


class CreatedApiKey(ApiKey):
    # The key itself. Shown only in this response: store it now.
    secret: str


class CreateApiKeyRequest(TypedDict):
    name: str
    environment: Literal["sandbox", "production"]


TenantUserRole = Literal["tenant_admin", "developer", "reviewer", "viewer"]


class TenantUser(TypedDict):
    object: Literal["user"]
    user_id: str
    email: str
    role: "TenantUserRole"
    tenant_id: str
    # `invited` until the invitation is accepted; `disabled` users can neither log in nor use a
    # token.
    status: Literal["invited", "active", "disabled"]
    # While `invited`: when the open invitation stops working.
    invitation_expires_at: Optional[str]
    # The user id of the admin who invited them.
    invited_by: Optional[str]
    created_at: str
    updated_at: str


class TenantUserList(TypedDict):
    object: Literal["list"]
    data: List["TenantUser"]
    has_more: bool


class InvitedUser(TenantUser):
    # Shown only in this response. The invited person sends it with a password of their choice to
    # `POST /v1/console/accept-invitation`, once, before `invitation_expires_at`. The server sends
    # no e-mail: the console hands the link over.
    invitation_token: str


InviteUserRequestRole = Literal["tenant_admin", "developer", "reviewer", "viewer"]


class InviteUserRequest(TypedDict):
    email: str
    role: "InviteUserRequestRole"


UpdateUserRequestRole = Literal["tenant_admin", "developer", "reviewer", "viewer"]


class UpdateUserRequest(TypedDict, total=False):
    role: "UpdateUserRequestRole"
    # `true` disables the user at once: no login, and every token they hold stops working. `false`
    # enables them again.
    disabled: bool


class AcceptInvitationRequest(TypedDict):
    invitation_token: str
    # 15 to 1024 characters (Unicode code points), any characters, no composition rules (NIST SP
    # 800-63B). Refused, as `invalid_parameter` with `password_rule`, when it is a common or
    # breached password or a simple variation of one (`common_password`), one character repeated
    # (`repeated_character`), holds the e-mail address (`contains_email`) or the tenant's name
    # (`contains_tenant_name`), or is too short or long (`too_short`, `too_long`).
    password: str


AuditEventAction = Literal[
    "console.login",
    "console.login_failed",
    "console.logout",
    "console.second_factor_failed",
    "session.review_approved",
    "session.review_rejected",
    "session.claim_taken_over",
    "session.claim_released",
    "session.assigned",
    "session.exported",
    "session.evidence_listed",
    "session.evidence_viewed",
    "session.personal_data_viewed",
    "api_key.created",
    "api_key.revoked",
    "webhook.created",
    "webhook.updated",
    "webhook.deleted",
    "webhook.secret_rotated",
    "webhook.tested",
    "user.invited",
    "user.invitation_reissued",
    "user.invitation_accepted",
    "user.role_changed",
    "user.disabled",
    "user.enabled",
    "user.totp_enrolled",
    "user.totp_removed",
    "user.passkey_registered",
    "user.passkey_removed",
    "user.recovery_codes_issued",
    "tenant.updated",
    "watchlist.replaced",
]


AuditEventActorType = Literal["user", "api_key", "unknown_account"]


class AuditEventActor(TypedDict):
    type: "AuditEventActorType"
    # A user id (`usr_…`) or an API key id (`key_…`).
    id: Optional[str]


AuditEventTargetType = Literal["user", "session", "api_key", "webhook", "tenant", "watchlist"]


class AuditEventTarget(TypedDict):
    type: "AuditEventTargetType"
    # Null for the watchlist (one per environment).
    id: Optional[str]


class AuditEvent(TypedDict):
    object: Literal["audit_event"]
    audit_event_id: str
    action: "AuditEventAction"
    actor: "AuditEventActor"
    target: Optional["AuditEventTarget"]
    # Null for tenant-wide actions: logins, users, tenant settings.
    environment: Literal["sandbox", "production", None]
    # The `x-request-id` of the request that did it.
    request_id: Optional[str]
    # The caller’s network, never the address: IPv4 truncated to /24, IPv6 to /48 (e.g.
    # `203.0.113.0/24`).
    ip_prefix: Optional[str]
    # Codes, counts, flags and changed field names, e.g.
    # `{"previous_role":"viewer","role":"reviewer"}`; never a personal value or a secret.
    details: Dict[str, Any]
    created_at: str


class AuditEventList(TypedDict):
    object: Literal["list"]
    data: List["AuditEvent"]
    has_more: bool


class StatsSessionsByStatus(TypedDict, total=False):
    created: int
    collecting: int
    processing: int
    approved: int
    rejected: int
    review_required: int
    expired: int
    cancelled: int


class StatsSessions(TypedDict):
    total: int
    by_status: "StatsSessionsByStatus"


class StatsPerDayItem(TypedDict):
    date: str
    created: int
    approved: int
    rejected: int
    review_required: int


class StatsReviewQueue(TypedDict):
    # Sessions in `review_required` now, of any age.
    length: int
    # When the longest-waiting one was handed over.
    oldest_since: Optional[str]
    oldest_age_seconds: Optional[int]


Stats = TypedDict(
    "Stats",
    {
        "object": Literal["stats"],
        "environment": Literal["sandbox", "production"],
        "days": int,
        "from": str,
        "to": str,
        "sessions": "StatsSessions",
        "approval_rate": Optional[float],
        "median_seconds_to_decision": Optional[float],
        "per_day": List["StatsPerDayItem"],
        "review_queue": "StatsReviewQueue",
    },
)


class Branding(TypedDict, total=False):
    primary_color: str
    accent_color: str
    logo_url: str


TenantDocumentAuthenticity = Literal["offline_checks", "manual_review"]


class Tenant(TypedDict):
    object: Literal["tenant"]
    tenant_id: str
    name: str
    status: Literal["active", "suspended"]
    allowed_origins: List[str]
    branding: "Branding"
    minimum_age: int
    # `offline_checks`: a document whose offline checks (machine-readable zone check digits,
    # layout, portrait, barcode) all pass is accepted as authentic without forensics;
    # `manual_review`: document authenticity always goes to a person.
    document_authenticity: "TenantDocumentAuthenticity"
    # How many days old a proof of address may be.
    proof_of_address_max_age_days: int
    # Attempts an end-user gets at each step of a new session. Only judged tries count: a photo or
    # selfie refused for capture quality costs none.
    attempts_per_step: int
    # Every member must log in with a second factor; a member without one reaches only the
    # enrolment operations.
    require_second_factor: bool
    # Minutes a session may wait in the review queue; the queue marks a longer wait as over target.
    review_target_minutes: int
    created_at: str
    updated_at: str


UpdateTenantRequestDocumentAuthenticity = Literal["offline_checks", "manual_review"]


class UpdateTenantRequest(TypedDict, total=False):
    name: str
    # Origins that may embed the widget and frame the hosted page.
    allowed_origins: List[str]
    branding: "Branding"
    # Default 18.
    minimum_age: int
    # Default `offline_checks`: the offline checks may pass document authenticity on their own.
    # `manual_review`: a person always judges it.
    document_authenticity: "UpdateTenantRequestDocumentAuthenticity"
    # How many days old a proof of address may be; default 92 (three months).
    proof_of_address_max_age_days: int
    # Attempts an end-user gets at each step of sessions created from now on (1–10); default 3.
    # Refusals for capture quality cost none.
    attempts_per_step: int
    # Every member must log in with a second factor (an authenticator app or a passkey); a member
    # without one can only enrol one. Default `false`.
    require_second_factor: bool
    # Minutes a session may wait in the review queue before it shows as over target (5 minutes to 7
    # days); default 240.
    review_target_minutes: int


SessionStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


SessionRequiredStepsItem = Literal[
    "consent",
    "id_document",
    "liveness",
    "proof_of_address",
    "business_details",
    "business_document",
]


SessionStepsItemStep = Literal[
    "consent",
    "id_document",
    "liveness",
    "proof_of_address",
    "business_details",
    "business_document",
]


class SessionStepsItem(TypedDict):
    step: "SessionStepsItemStep"
    status: Literal["pending", "completed"]
    attempts_remaining: int


class SessionLastError(TypedDict):
    code: str
    reason: str


class _SessionRequired(TypedDict):
    object: Literal["session"]
    session_id: str
    status: "SessionStatus"
    required_steps: List["SessionRequiredStepsItem"]
    expires_at: str
    environment: Literal["sandbox", "production"]
    country: str
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]
    external_user_reference: Optional[str]
    redirect_url: Optional[str]
    metadata: Dict[str, Optional[Union[str, float, bool]]]
    steps: List["SessionStepsItem"]
    identity_id: Optional[str]
    decision: Optional[str]
    last_error: Optional["SessionLastError"]
    reverification_request_id: Optional[str]
    created_at: str
    updated_at: str
    submitted_at: Optional[str]
    decided_at: Optional[str]


class Session(_SessionRequired, total=False):
    # Present while the session is created or collecting.
    verify_url: str


CreateSessionRequestSandboxOutcome = Literal["approved", "rejected", "review_required"]


class _CreateSessionRequestSandboxRequired(TypedDict):
    outcome: "CreateSessionRequestSandboxOutcome"


# Sandbox keys only: force the automated outcome.
class CreateSessionRequestSandbox(_CreateSessionRequestSandboxRequired, total=False):
    reason_codes: List[str]
    processing_delay_ms: int


class _CreateSessionRequestRequired(TypedDict):
    # ISO 3166-1 alpha-3, upper case
    country: str
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]


class CreateSessionRequest(_CreateSessionRequestRequired, total=False):
    external_user_reference: str
    redirect_url: str
    # ≤ 50 keys of ≤ 40 chars; string values ≤ 500 chars.
    metadata: Dict[str, Optional[Union[str, float, bool]]]
    # Seconds; default 86400.
    expires_in: int
    # Sandbox keys only: force the automated outcome.
    sandbox: "CreateSessionRequestSandbox"


class SessionList(TypedDict):
    object: Literal["list"]
    data: List["Session"]
    has_more: bool


SessionResultStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


SessionResultDecision = Literal["approved", "rejected", "review_required", None]


class SessionResultReasonsItem(TypedDict):
    code: str
    # For the tenant.
    message: str
    # Safe to show the end-user.
    user_message: str


SessionResultChecksItemType = Literal[
    "consent",
    "document_quality",
    "document_authenticity",
    "document_expiry",
    "data_consistency",
    "age",
    "liveness",
    "face_match",
    "duplicate_detection",
    "watchlist",
    "proof_of_address",
    "business_registry",
]


SessionResultChecksItemStatus = Literal["passed", "failed", "inconclusive", "not_performed"]


class _SessionResultChecksItemRequired(TypedDict):
    type: "SessionResultChecksItemType"
    status: "SessionResultChecksItemStatus"
    reason_codes: List[str]


class SessionResultChecksItem(_SessionResultChecksItemRequired, total=False):
    details: Dict[str, Any]


class SessionResult(TypedDict):
    object: Literal["session_result"]
    session_id: str
    status: "SessionResultStatus"
    decision: "SessionResultDecision"
    decided_at: Optional[str]
    decided_by: Literal["automated", "reviewer", None]
    identity_id: Optional[str]
    # Whether the end-user may try again: in this session while it waits for a recapture, otherwise
    # with a new session.
    retry_allowed: bool
    reasons: List["SessionResultReasonsItem"]
    checks: List["SessionResultChecksItem"]


ReviewSessionRequestReasonCodesItem = Literal[
    "document_expired",
    "document_unreadable",
    "document_type_not_supported",
    "document_tampered",
    "data_mismatch",
    "underage",
    "liveness_failed",
    "face_mismatch",
    "face_match_uncertain",
    "duplicate_identity",
    "watchlist_hit",
    "attempts_exhausted",
    "manual_rejection",
    "sandbox_forced",
]


class _ReviewSessionRequestRequired(TypedDict):
    decision: Literal["approve", "reject"]


class ReviewSessionRequest(_ReviewSessionRequestRequired, total=False):
    # With `reject` only; `manual_rejection` is always added.
    reason_codes: List["ReviewSessionRequestReasonCodesItem"]
    # Kept encrypted for the audit trail; never sent in events or results.
    note: str


class ReviewClaim(TypedDict):
    object: Literal["review_claim"]
    session_id: str
    # The user (`usr_…`) working on the session.
    reviewer_id: str
    claimed_at: str
    # When the claim lapses unless renewed (30 minutes after the last claim); null for an admin’s
    # assignment, held until released, decided or reassigned.
    expires_at: Optional[str]
    # The admin who assigned the session; null for a reviewer’s own claim.
    assigned_by: Optional[str]


class ReviewQueueItem(TypedDict):
    object: Literal["review_queue_item"]
    session_id: str
    country: str
    flow: str
    tier: str
    external_user_reference: Optional[str]
    created_at: str
    submitted_at: Optional[str]
    # When the automated review sent the session to a person.
    waiting_since: str
    waiting_minutes: int
    # The tenant’s `review_target_minutes`.
    target_minutes: int
    over_target: bool
    # Why the session waits for a person.
    reason_codes: List[str]
    claim: Optional["ReviewClaim"]


class ReviewQueue(TypedDict):
    object: Literal["list"]
    data: List["ReviewQueueItem"]
    has_more: bool
    target_minutes: int


class ReviewClaimRelease(TypedDict):
    object: Literal["review_claim_release"]
    session_id: str
    # False when nobody held an active claim.
    released: bool
    previous_reviewer_id: Optional[str]


class AssignSessionRequest(TypedDict):
    # An active member of the tenant whose role can review (`reviewer` or `tenant_admin`).
    user_id: str


DocumentDataFieldsItem = Literal[
    "first_name",
    "last_name",
    "date_of_birth",
    "document_number",
    "expiry_date",
    "nationality",
]


class DocumentDataSourcesItemValues(TypedDict):
    first_name: Optional[str]
    last_name: Optional[str]
    date_of_birth: Optional[str]
    document_number: Optional[str]
    expiry_date: Optional[str]
    nationality: Optional[str]


class DocumentDataSourcesItem(TypedDict):
    source: Literal["typed", "mrz", "barcode"]
    # Typed: always true. MRZ: its check digits verify (an MRZ that does not is shown but compared
    # with nothing). Barcode: it decoded.
    verified: bool
    values: "DocumentDataSourcesItemValues"


DocumentDataDisagreementsItem = Literal[
    "first_name",
    "last_name",
    "date_of_birth",
    "document_number",
    "expiry_date",
    "nationality",
]


class DocumentData(TypedDict):
    object: Literal["document_data"]
    session_id: str
    document_type: Optional[str]
    issuing_country: Optional[str]
    fields: List["DocumentDataFieldsItem"]
    sources: List["DocumentDataSourcesItem"]
    # Fields on which trustworthy sources disagree, as the `data_consistency` check found.
    disagreements: List["DocumentDataDisagreementsItem"]


SimulateSessionRequestAction = Literal[
    "start",
    "complete_steps",
    "submit",
    "approve",
    "reject",
    "review",
    "expire",
]


SimulateSessionRequestReasonCodesItem = Literal[
    "document_expired",
    "document_unreadable",
    "document_type_not_supported",
    "document_tampered",
    "data_mismatch",
    "underage",
    "liveness_failed",
    "face_mismatch",
    "face_match_uncertain",
    "duplicate_identity",
    "watchlist_hit",
    "attempts_exhausted",
    "manual_rejection",
    "sandbox_forced",
]


class _SimulateSessionRequestRequired(TypedDict):
    # `start`, `complete_steps` and `submit` act as the end-user; `approve`, `reject` and `review`
    # as the engine (walking through the earlier steps first), or as a reviewer on a
    # `review_required` session; `expire` as the clock.
    action: "SimulateSessionRequestAction"


class SimulateSessionRequest(_SimulateSessionRequestRequired, total=False):
    # With `reject` or `review`: the reasons the forced decision carries.
    reason_codes: List["SimulateSessionRequestReasonCodesItem"]


IdentityStatus = Literal["verified", "reverification_pending", "reverification_failed", "revoked"]


class IdentityAttributesDocument(TypedDict):
    # Masked as the first character and `***` without `identities:read_pii`.
    type: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    issuing_country: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    number: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    expiry_date: Optional[str]


class _IdentityAttributesRequired(TypedDict):
    # Masked as the first character and `***` without `identities:read_pii`.
    first_name: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    last_name: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    date_of_birth: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    nationality: Optional[str]
    document: "IdentityAttributesDocument"


class IdentityAttributes(_IdentityAttributesRequired, total=False):
    # Masked as the first character and `***` without `identities:read_pii`.
    address: Optional[str]


class IdentityBusiness(TypedDict):
    # Masked as the first character and `***` without `identities:read_pii`.
    legal_name: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    registration_number: Optional[str]
    # Masked as the first character and `***` without `identities:read_pii`.
    jurisdiction: Optional[str]


class _IdentityRequired(TypedDict):
    object: Literal["identity"]
    identity_id: str
    environment: Literal["sandbox", "production"]
    status: "IdentityStatus"
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]
    external_user_reference: Optional[str]
    verified_at: str
    latest_session_id: str
    attributes: "IdentityAttributes"
    # A selfie is enrolled, so a `biometric` re-verification is possible.
    biometric_reference: bool
    personal_data_masked: bool
    created_at: str
    updated_at: str


class Identity(_IdentityRequired, total=False):
    business: "IdentityBusiness"


class IdentityList(TypedDict):
    object: Literal["list"]
    data: List["Identity"]
    has_more: bool


ReverificationRequestReasonCode = Literal[
    "periodic_review",
    "document_expired",
    "account_change",
    "high_risk_action",
    "suspicious_activity",
    "other",
]


ReverificationRequestStatus = Literal[
    "pending",
    "in_progress",
    "review_required",
    "approved",
    "rejected",
    "expired",
    "cancelled",
]


ReverificationRequestRequiredStepsItem = Literal[
    "consent",
    "id_document",
    "liveness",
    "proof_of_address",
    "business_details",
    "business_document",
]


class ReverificationRequest(TypedDict):
    object: Literal["reverification_request"]
    reverification_request_id: str
    identity_id: str
    reason: str
    reason_code: "ReverificationRequestReasonCode"
    mode: Literal["full", "biometric"]
    # Mirrors the linked session.
    status: "ReverificationRequestStatus"
    session_id: str
    # While the linked session is open.
    verify_url: Optional[str]
    required_steps: List["ReverificationRequestRequiredStepsItem"]
    expires_at: str
    created_at: str
    completed_at: Optional[str]


CreateReverificationRequestReasonCode = Literal[
    "periodic_review",
    "document_expired",
    "account_change",
    "high_risk_action",
    "suspicious_activity",
    "other",
]


class _CreateReverificationRequestRequired(TypedDict):
    reason: str


class CreateReverificationRequest(_CreateReverificationRequestRequired, total=False):
    # Default `other`.
    reason_code: "CreateReverificationRequestReasonCode"
    # `full` (default): the identity’s tier steps again. `biometric`: consent + liveness against
    # the enrolled selfie.
    mode: Literal["full", "biometric"]
    redirect_url: str
    # Seconds the linked session lives; default 86400.
    expires_in: int


class _WatchlistEntryRequired(TypedDict):
    # Any order; case and diacritics are ignored.
    name: str


class WatchlistEntry(_WatchlistEntryRequired, total=False):
    aliases: List[str]
    date_of_birth: str
    # Reported as the hit’s source.
    list: str


class Watchlist(TypedDict):
    object: Literal["watchlist"]
    environment: Literal["sandbox", "production"]
    # `tenant`: your uploaded list. `sample`: none uploaded, and the sandbox screens against the
    # shipped fictional sample list. `none`: none uploaded in production, so tier3 screening cannot
    # run and its check is `inconclusive`.
    source: Literal["tenant", "sample", "none"]
    entries: List["WatchlistEntry"]
    entry_count: int
    updated_at: Optional[str]


class PutWatchlistRequest(TypedDict):
    entries: List["WatchlistEntry"]


class Webhook(TypedDict):
    object: Literal["webhook"]
    webhook_id: str
    url: str
    events: List[str]
    status: Literal["active", "disabled"]
    environment: Literal["sandbox", "production"]
    description: Optional[str]
    # `endpoint_gone` when a 410 disabled it; null otherwise.
    disabled_reason: Optional[str]
    # Until then the previous secret signs too (after a rotation).
    previous_secret_expires_at: Optional[str]
    created_at: str
    updated_at: str


class WebhookWithSecret(Webhook):
    # `whsec_` + base64 of 32 random bytes. Shown only in this response: store it now.
    secret: str


class _CreateWebhookRequestRequired(TypedDict):
    # Production endpoints need https and a public address; sandbox may use http and loopback.
    url: str
    # `["*"]` subscribes to all.
    events: List[str]


class CreateWebhookRequest(_CreateWebhookRequestRequired, total=False):
    description: str


class WebhookList(TypedDict):
    object: Literal["list"]
    data: List["Webhook"]
    has_more: bool


class UpdateWebhookRequest(TypedDict, total=False):
    # Production endpoints need https and a public address; sandbox may use http and loopback.
    url: str
    # `["*"]` subscribes to all.
    events: List[str]
    description: Optional[str]
    # `active` re-enables an endpoint disabled by hand or after a 410.
    status: Literal["active", "disabled"]


class DeletedWebhook(TypedDict):
    object: Literal["webhook"]
    webhook_id: str
    deleted: Literal[True]


class RotateWebhookSecretRequest(TypedDict, total=False):
    # Seconds the old secret keeps signing; default 86400 (24 h). 0 ends it now (a leaked secret).
    previous_secret_expires_in: int


WebhookTestResultStatusClass = Literal["1xx", "2xx", "3xx", "4xx", "5xx", None]


class WebhookTestResult(TypedDict):
    object: Literal["webhook_test"]
    delivery_id: str
    event_id: str
    # True when the receiver answered with a 2xx status.
    delivered: bool
    # The class of the receiver's HTTP status; null when no answer came.
    status_class: "WebhookTestResultStatusClass"


WebhookDeliveryStatus = Literal["pending", "succeeded", "failed"]


WebhookAttemptStatus = Literal["in_flight", "succeeded", "failed", "interrupted"]


class WebhookAttempt(TypedDict):
    attempt: int
    status: "WebhookAttemptStatus"
    response_status: Optional[int]
    duration_ms: Optional[int]
    # redirect, http_error, endpoint_gone, timeout, connection_refused, dns_failure,
    # address_not_allowed, tls_error, network_error, interrupted
    error_class: Optional[str]
    started_at: str


class WebhookDelivery(TypedDict):
    object: Literal["webhook_delivery"]
    delivery_id: str
    webhook_id: str
    event_id: str
    event_type: str
    status: "WebhookDeliveryStatus"
    attempt_count: int
    next_attempt_at: Optional[str]
    last_attempt_at: Optional[str]
    last_response_status: Optional[int]
    last_error_class: Optional[str]
    attempts: List["WebhookAttempt"]
    created_at: str


class WebhookDeliveryList(TypedDict):
    object: Literal["list"]
    data: List["WebhookDelivery"]
    has_more: bool


class Event(TypedDict):
    object: Literal["event"]
    event_id: str
    type: str
    environment: Literal["sandbox", "production"]
    session_id: Optional[str]
    identity_id: Optional[str]
    created_at: str
    # Exactly what deliveries carry: thin, ids and status only.
    payload: Dict[str, Any]


class EventList(TypedDict):
    object: Literal["list"]
    data: List["Event"]
    has_more: bool


class EvidenceUploadQuality(TypedDict):
    ok: bool
    issues: List[str]
    sharpness: float
    glare_ratio: float
    brightness: float


class EvidenceUpload(TypedDict):
    object: Literal["upload"]
    upload_id: str
    session_id: str
    kind: Literal["document", "liveness_frame"]
    step: str
    document_type: Optional[str]
    side: Literal["front", "back", None]
    issuing_country: Optional[str]
    liveness_challenge_id: Optional[str]
    frame_index: Optional[int]
    content_type: str
    byte_size: int
    width: int
    height: int
    quality: "EvidenceUploadQuality"
    created_at: str


VerifySessionStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


VerifySessionRequiredStepsItem = Literal[
    "consent",
    "id_document",
    "liveness",
    "proof_of_address",
    "business_details",
    "business_document",
]


VerifySessionStepsItemStep = Literal[
    "consent",
    "id_document",
    "liveness",
    "proof_of_address",
    "business_details",
    "business_document",
]


class VerifySessionStepsItem(TypedDict):
    step: "VerifySessionStepsItemStep"
    status: Literal["pending", "completed"]
    attempts_remaining: int


class VerifySessionTenantBranding(TypedDict, total=False):
    primary_color: str
    accent_color: str
    logo_url: str


class VerifySessionTenant(TypedDict):
    name: str
    branding: "VerifySessionTenantBranding"


# The session as the end-user sees it: progress and presentation, never personal data.
class VerifySession(TypedDict):
    object: Literal["verify_session"]
    session_id: str
    status: "VerifySessionStatus"
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]
    country: str
    required_steps: List["VerifySessionRequiredStepsItem"]
    steps: List["VerifySessionStepsItem"]
    expires_at: str
    sandbox: bool
    tenant: "VerifySessionTenant"
    accepted_document_types: Dict[str, List[str]]
    # Present once the session is over.
    redirect_url: Optional[str]


class _VerifyPrefillIdDocumentDetailsRequired(TypedDict):
    first_name: str
    last_name: str
    date_of_birth: str
    document_number: str
    expiry_date: str


class VerifyPrefillIdDocumentDetails(_VerifyPrefillIdDocumentDetailsRequired, total=False):
    nationality: str


class VerifyPrefillIdDocument(TypedDict):
    source: Literal["mrz", "barcode"]
    details: "VerifyPrefillIdDocumentDetails"
    # False when the document gave every detail whole: `PUT /v1/verify/details` is then optional.
    details_required: bool


# The end-user’s own details as read off the uploaded identity document (machine-readable zone with
# valid check digits first, else the barcode), for prefilling the details form while the session
# collects evidence; `{}` when nothing was read.
class VerifyPrefill(TypedDict, total=False):
    id_document: "VerifyPrefillIdDocument"


# The session as the end-user sees it, with what can be prefilled from their document.
class VerifySessionView(VerifySession):
    prefill: "VerifyPrefill"


VerifyConsentSessionStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


class VerifyConsent(TypedDict):
    object: Literal["consent"]
    accepted: bool
    consent_version: str
    recorded_at: str
    session_status: "VerifyConsentSessionStatus"


class _VerifyConsentRequestRequired(TypedDict):
    accepted: bool
    consent_version: str


class VerifyConsentRequest(_VerifyConsentRequestRequired, total=False):
    locale: str


VerifyUploadStep = Literal["id_document", "proof_of_address", "business_document"]


VerifyUploadDocumentType = Literal[
    "passport",
    "id_card",
    "driving_licence",
    "residence_permit",
    "utility_bill",
    "bank_statement",
    "tax_document",
    "registration_certificate",
]


VerifyUploadQualityIssuesItem = Literal["blurry", "glare", "too_dark", "too_small", "no_document"]


class VerifyUploadQuality(TypedDict):
    ok: bool
    issues: List["VerifyUploadQualityIssuesItem"]


VerifyUploadSessionStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


# For `id_document` photos read by the server’s document reader; absent when the photo was not read
# (quality issues, no reader configured).
class VerifyUploadReading(TypedDict):
    # A machine-readable zone was read and checks out.
    mrz_read: bool
    # A PDF417 barcode with licence data was read.
    barcode_read: bool
    # Whether the end-user must still type the details: false once the document gave them whole
    # (then `PUT /v1/verify/details` is optional).
    details_required: bool


class _VerifyUploadRequired(TypedDict):
    object: Literal["upload"]
    upload_id: str
    step: "VerifyUploadStep"
    document_type: "VerifyUploadDocumentType"
    side: Literal["front", "back"]
    quality: "VerifyUploadQuality"
    step_status: Literal["pending", "completed"]
    attempts_remaining: int
    session_status: "VerifyUploadSessionStatus"


class VerifyUpload(_VerifyUploadRequired, total=False):
    # For `id_document` photos read by the server’s document reader; absent when the photo was not
    # read (quality issues, no reader configured).
    reading: "VerifyUploadReading"


VerifyDetailsStep = Literal["id_document", "business_details"]


# How the supplied MRZ compares; null without one.
class VerifyDetailsMrz(TypedDict):
    check_digits_valid: bool
    matches_details: bool


# How the details compare with what the server read off the uploaded document; absent when nothing
# was read.
class VerifyDetailsReading(TypedDict):
    source: Literal["mrz", "barcode"]
    matches_details: bool


class _VerifyDetailsRequired(TypedDict):
    object: Literal["verify_details"]
    step: "VerifyDetailsStep"
    step_status: Literal["pending", "completed"]
    # How the supplied MRZ compares; null without one.
    mrz: Optional["VerifyDetailsMrz"]


class VerifyDetails(_VerifyDetailsRequired, total=False):
    # How the details compare with what the server read off the uploaded document; absent when
    # nothing was read.
    reading: "VerifyDetailsReading"
    user_message: str


class _VerifyDetailsRequest1Required(TypedDict):
    step: Literal["id_document"]
    first_name: str
    last_name: str
    date_of_birth: str
    nationality: str
    document_number: str
    expiry_date: str


class VerifyDetailsRequest1(_VerifyDetailsRequest1Required, total=False):
    # The machine-readable zone, lines joined by `\n`.
    mrz: str


class VerifyDetailsRequest2(TypedDict):
    step: Literal["business_details"]
    legal_name: str
    registration_number: str
    jurisdiction: str


VerifyDetailsRequest = Union["VerifyDetailsRequest1", "VerifyDetailsRequest2"]


LivenessChallengeActionsItem = Literal["turn_left", "turn_right", "look_up", "smile", "blink"]


class LivenessChallenge(TypedDict):
    object: Literal["liveness_challenge"]
    # The nonce the frames must answer, once.
    challenge_id: str
    actions: List["LivenessChallengeActionsItem"]
    expires_at: str


VerifyLivenessAttemptReason = Literal[
    "challenge_expired",
    "frame_count_mismatch",
    "frame_undecodable",
    "frames_repeated",
    "no_face",
    "several_faces",
    "face_changed",
    "action_not_performed",
    "capture_quality",
]


VerifyLivenessAttemptQualityIssuesItem = Literal["too_small", "too_dark", "blurry"]


VerifyLivenessAttemptAction = Literal["turn_left", "turn_right", "look_up", "smile", "blink"]


VerifyLivenessAttemptSessionStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


class _VerifyLivenessAttemptRequired(TypedDict):
    object: Literal["liveness_attempt"]
    status: Literal["accepted", "retry"]
    attempts_remaining: int
    session_status: "VerifyLivenessAttemptSessionStatus"


class VerifyLivenessAttempt(_VerifyLivenessAttemptRequired, total=False):
    # With `retry`: why the attempt was sent back, for a client to word in its own language.
    # `capture_quality` (see `quality_issues`) and `frame_undecodable` cost no attempt.
    reason: "VerifyLivenessAttemptReason"
    # With `capture_quality`: what to fix (light, stillness, camera) before trying again.
    quality_issues: List["VerifyLivenessAttemptQualityIssuesItem"]
    # With `action_not_performed`: the action that was not seen.
    action: "VerifyLivenessAttemptAction"
    # With `retry`: the advice, in English.
    user_message: str


VerifyCompleteRequestSandboxOutcome = Literal["approved", "rejected", "review_required"]


# Sandbox sessions only: the automated outcome to force, chosen by the developer testing the flow
# (the widget offers it on its review screen). Replaces an outcome set at creation.
class VerifyCompleteRequestSandbox(TypedDict):
    outcome: "VerifyCompleteRequestSandboxOutcome"


class VerifyCompleteRequest(TypedDict, total=False):
    # Sandbox sessions only: the automated outcome to force, chosen by the developer testing the
    # flow (the widget offers it on its review screen). Replaces an outcome set at creation.
    sandbox: "VerifyCompleteRequestSandbox"


class VerifyHandoff(TypedDict):
    object: Literal["handoff"]
    handoff_url: str
    expires_at: str


# The query of getStats.
class GetStatsQuery(TypedDict, total=False):
    # For a console token, the environment to report on (as `x-environment`; both must agree). For
    # an API key, its own environment or nothing.
    environment: Literal["sandbox", "production"]
    # 1–90, default 30: today (UTC) and the days before it.
    days: int


ListSessionsQueryStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


ListSessionsQueryReasonCode = Literal[
    "document_expired",
    "document_unreadable",
    "document_type_not_supported",
    "document_tampered",
    "data_mismatch",
    "underage",
    "liveness_failed",
    "face_mismatch",
    "face_match_uncertain",
    "duplicate_identity",
    "watchlist_hit",
    "attempts_exhausted",
    "manual_rejection",
    "sandbox_forced",
]


# The query of listSessions.
class ListSessionsQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str
    # Repeatable.
    status: Union["ListSessionsQueryStatus", List["ListSessionsQueryStatus"]]
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]
    # ISO 3166-1 alpha-3, upper case
    country: str
    external_user_reference: str
    identity_id: str
    created_gte: str
    created_lte: str
    # A session id, an external user reference (exact), or a name: every word must be a word of a
    # first or last name a review read (case and accents ignored; compared by keyed digests, never
    # decrypted).
    q: str
    # Repeatable: sessions whose latest decision gives any of these reasons.
    reason_code: Union["ListSessionsQueryReasonCode", List["ListSessionsQueryReasonCode"]]
    # By creation time: `desc` newest first (default), `asc` oldest first (a review queue). The
    # cursors follow the order: `starting_after` continues the list, `ending_before` goes back.
    order: Literal["desc", "asc"]


ListReviewQueueQueryReasonCode = Literal[
    "document_expired",
    "document_unreadable",
    "document_type_not_supported",
    "document_tampered",
    "data_mismatch",
    "underage",
    "liveness_failed",
    "face_mismatch",
    "face_match_uncertain",
    "duplicate_identity",
    "watchlist_hit",
    "attempts_exhausted",
    "manual_rejection",
    "sandbox_forced",
]


# The query of listReviewQueue.
class ListReviewQueueQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str
    # A session id, an external user reference (exact), or a name: every word must be a word of a
    # first or last name the review read (case and accents ignored). Names are compared by keyed
    # digests, never decrypted.
    q: str
    # Repeatable: sessions in review for any of these reasons.
    reason_code: Union["ListReviewQueueQueryReasonCode", List["ListReviewQueueQueryReasonCode"]]
    # Only sessions the caller holds, nobody holds, or someone else holds.
    claim: Literal["mine", "unclaimed", "others"]


ExportSessionsQueryStatus = Literal[
    "created",
    "collecting",
    "processing",
    "approved",
    "rejected",
    "review_required",
    "expired",
    "cancelled",
]


ExportSessionsQueryReasonCode = Literal[
    "document_expired",
    "document_unreadable",
    "document_type_not_supported",
    "document_tampered",
    "data_mismatch",
    "underage",
    "liveness_failed",
    "face_mismatch",
    "face_match_uncertain",
    "duplicate_identity",
    "watchlist_hit",
    "attempts_exhausted",
    "manual_rejection",
    "sandbox_forced",
]


# The query of exportSessions.
class ExportSessionsQuery(TypedDict, total=False):
    # Repeatable.
    status: Union["ExportSessionsQueryStatus", List["ExportSessionsQueryStatus"]]
    flow: Literal["user", "business"]
    tier: Literal["tier1", "tier2", "tier3"]
    # ISO 3166-1 alpha-3, upper case
    country: str
    external_user_reference: str
    identity_id: str
    created_gte: str
    created_lte: str
    # A session id, an external user reference (exact), or a name: every word must be a word of a
    # first or last name a review read (case and accents ignored; compared by keyed digests, never
    # decrypted).
    q: str
    # Repeatable: sessions whose latest decision gives any of these reasons.
    reason_code: Union["ExportSessionsQueryReasonCode", List["ExportSessionsQueryReasonCode"]]
    # By creation time: `desc` newest first (default), `asc` oldest first (a review queue). The
    # cursors follow the order: `starting_after` continues the list, `ending_before` goes back.
    order: Literal["desc", "asc"]


# The query of listIdentities.
class ListIdentitiesQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str
    external_user_reference: str


# The query of listWebhooks.
class ListWebhooksQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str


ListWebhookDeliveriesQueryStatus = Literal["pending", "succeeded", "failed"]


# The query of listWebhookDeliveries.
class ListWebhookDeliveriesQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str
    status: "ListWebhookDeliveriesQueryStatus"
    event_id: str


# The query of listEvents.
class ListEventsQuery(TypedDict, total=False):
    # 1–100, default 20
    limit: int
    # An object id: items older than it.
    starting_after: str
    # An object id: items newer than it.
    ending_before: str
    # Repeatable, e.g. `session.approved`.
    type: Union[str, List[str]]
    session_id: str
    identity_id: str


# The body of any webhook delivery; branch on its `event`.
WebhookEvent = Union[
    "SessionEvent",
    "IdentityEvent",
    "ReverificationCompletedEvent",
    "WebhookTestEvent",
]
WebhookEventKind = Literal[
    "session.created",
    "session.collecting",
    "session.processing",
    "session.approved",
    "session.rejected",
    "session.review_required",
    "session.expired",
    "session.cancelled",
    "session.resubmission_requested",
    "identity.created",
    "identity.updated",
    "reverification.completed",
    "webhook.test",
]
