import { css, html, LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { parseVerifyUrl } from './api/parse-verify-url.ts';
import { expiryReason, VerifyApiError } from './api/verify-api-error.ts';
import { VerifyApi, type VerifyApiClient } from './api/verify-api.ts';
import type { SandboxOutcome, SessionStatus, SessionView, StepId } from './api/verify-types.ts';
import { brandingDeclarations } from './components/branding.ts';
import { isHandheld } from './components/handheld.ts';
import { sharedStyles } from './components/shared-styles.ts';
import { themeStyles } from './components/theme-styles.ts';
import { defineInnerElements, defineLivenessStep } from './define-inner-elements.ts';
import { IdvBeforeStepChangeEvent } from './events/idv-before-step-change-event.ts';
import { IdvCompleteEvent } from './events/idv-complete-event.ts';
import { IdvErrorEvent } from './events/idv-error-event.ts';
import { IdvExitEvent } from './events/idv-exit-event.ts';
import { IdvReadyEvent } from './events/idv-ready-event.ts';
import { IdvStepChangeEvent } from './events/idv-step-change-event.ts';
import { IdvTokenExpiredEvent } from './events/idv-token-expired-event.ts';
import type { StepChangeDetail } from './events/step-change-detail.ts';
import { visionAssetsUrl } from './liveness/vision-assets-url.ts';
import {
  buildContext,
  INITIAL_STATE,
  progressOf,
  stepOfScreen,
  TERMINAL_STATUSES,
  transition,
} from './flow/index.ts';
import type { FlowEvent, FlowState, Screen } from './flow/flow-types.ts';
import { en, type MessageKey } from './i18n/en.ts';
import { isRtl, loadMessages, negotiateLocale, type Translate, translator } from './i18n/localize.ts';
import { problemMessage, reasonMessage } from './i18n/problem-message.ts';
import { resultText } from './result-text.ts';
import type {
  AttemptsEvent,
  FlowIntentEvent,
  StepFailedEvent,
  SubmitIntentEvent,
} from './steps/step-events.ts';
import { STEP_TITLE } from './steps/step-titles.ts';

export type Theme = 'light' | 'dark' | 'auto';

/** Default cadence of status polling while the checks run or a phone carries on. */
const DEFAULT_POLL_MS = 2000;
/** Steps that use a camera: the ones where "continue on your phone" helps. */
const CAMERA_SCREENS: readonly Screen[] = ['document_type', 'document_front', 'document_back', 'liveness'];
/** Screens where an attempt can fail (a photo with quality issues, a selfie check to redo). */
const ATTEMPT_SCREENS: readonly Screen[] = [
  'document_front',
  'document_back',
  'liveness',
  'proof_of_address',
  'business_document',
];
/** Attempts per step (API.md §4): fewer left in a session view means one already failed. */
const ATTEMPTS_PER_STEP = 3;

/** `allow-upload` is on unless set to "false" (a plain boolean attribute could not default to on). */
const onUnlessFalse = {
  fromAttribute: (value: string | null) => value === null || value.toLowerCase() !== 'false',
  toAttribute: (value: boolean) => (value ? null : 'false'),
};

function screenName(state: FlowState): string {
  switch (state.phase) {
    case 'step':
      return state.screen;
    case 'result':
      return `result_${state.status}`;
    case 'expired':
      return state.reason;
    default:
      return state.phase;
  }
}

/**
 * `<id-verify>`: the whole end-user verification flow in one element. Give it the hosted-page link the
 * tenant's server received (`verify-url`), or the token and API origin separately.
 *
 * @example
 *   <id-verify verify-url="https://verify.example.com/verify/vt_…" locale="fr" theme="auto"></id-verify>
 *
 * Events come in one order (docs/widget.md): `idv-ready` first, once per session token (again after a
 * fresh `verify-url` set following `idv-token-expired`), before any `idv-step-change`; then
 * `idv-before-step-change`/`idv-step-change` per screen; then `idv-complete`, `idv-exit` or `idv-error`.
 *
 * @fires idv-ready - first: the session loaded, before the first `idv-step-change`; once per token
 * @fires idv-before-step-change - cancelable; `preventDefault()` holds the current screen until `proceed()`
 * @fires idv-step-change - a new screen is shown
 * @fires idv-complete - the session reached a final status for this visit `{session_id, status}`
 * @fires idv-error - an error was shown `{code, message, recoverable}`; `attempts_exhausted` when a step has none left
 * @fires idv-exit - the end-user pressed Close on a final screen (without a `redirect_url` a closing screen follows)
 * @fires idv-token-expired - the link expired; set a fresh `verify-url` to resume (not for an invalid link)
 *
 * @csspart base - the widget's frame
 * @csspart sandbox-banner - the sandbox notice
 * @csspart header - title and progress
 * @csspart progress - the "Step X of Y" text
 * @csspart attempts - the "Attempts left" notice on a capture step after a failed attempt
 * @csspart body - the current screen
 */
export class IdVerifyElement extends LitElement {
  static override styles = [
    themeStyles,
    sharedStyles,
    css`
      .base {
        padding: 1.25rem;
        max-inline-size: 40rem;
        margin-inline: auto;
      }
      .banner {
        background: var(--idv-color-banner);
        color: var(--idv-color-on-banner);
        border-radius: var(--idv-radius);
        padding: 0.5rem 0.75rem;
        font-weight: 600;
      }
      .header {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        align-items: baseline;
        gap: 0.5rem;
        margin-block-end: 1rem;
      }
      .header p {
        margin: 0;
      }
      .title {
        font-weight: 700;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    verifyUrl: { attribute: 'verify-url' },
    token: {},
    apiBase: { attribute: 'api-base' },
    locale: {},
    theme: { reflect: true },
    allowUpload: { attribute: 'allow-upload', converter: onUnlessFalse },
    api: { attribute: false },
    pollInterval: { attribute: false },
    flow: { state: true },
    session: { state: true },
    t: { state: true },
    language: { state: true },
    announcement: { state: true },
    missing: { state: true },
    handoff: { state: true },
    attemptsLeft: { state: true },
    closed: { state: true },
  };

  /** The hosted-page link `{verify_base_url}/verify/<token>`. */
  declare verifyUrl: string | null;
  /** With `apiBase`, an alternative to `verifyUrl`. */
  declare token: string | null;
  declare apiBase: string | null;
  /** BCP 47 tag; else the browser's languages. */
  declare locale: string | null;
  declare theme: Theme;
  /** Offer file upload as well as the camera (default on; `allow-upload="false"` to turn off). */
  declare allowUpload: boolean;
  /** Replaces the fetch client (tests, custom transports). */
  declare api: VerifyApiClient | null;
  /** Milliseconds between status polls. */
  declare pollInterval: number;
  declare flow: FlowState;
  declare session: SessionView | null;
  declare t: Translate;
  declare language: string;
  declare announcement: string;
  declare missing: boolean;
  declare handoff: boolean;
  /** Attempts left per step, once one has failed there. */
  declare attemptsLeft: Partial<Record<StepId, number>>;
  /** Close was pressed on a final screen with nowhere to redirect to. */
  declare closed: boolean;

  #client: VerifyApiClient | null = null;
  #clientKey = '';
  /** The face model's URL on the verify server (beside the API), null with a custom `api`. */
  #visionBase: string | null = null;
  #load: AbortController | null = null;
  #pending: FlowState | null = null;
  #readyFired = false;
  #completedStatus: SessionStatus | null = null;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #brandSheet: CSSStyleSheet | null = null;
  #localeRequest = 0;
  /** A step ran out of attempts: the session is rejected for that, and the final screen says so. */
  #exhausted = false;
  /**
   * The session was already submitted or decided when this token's first view loaded: the person here
   * may not be the one who submitted (a shared or reused link), so no outcome is told as theirs.
   */
  #arrivedFinished = false;

  constructor() {
    super();
    this.verifyUrl = null;
    this.token = null;
    this.apiBase = null;
    this.locale = null;
    this.theme = 'light';
    this.allowUpload = true;
    this.api = null;
    this.pollInterval = DEFAULT_POLL_MS;
    this.flow = INITIAL_STATE;
    this.session = null;
    this.t = translator(en);
    this.language = 'en';
    this.announcement = '';
    this.missing = false;
    this.handoff = false;
    this.attemptsLeft = {};
    this.closed = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Defined on first use, not at import: importing the package has no side effects (SSR-safe).
    defineInnerElements();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#load?.abort();
    this.#stopPolling();
  }

  /** The current flow state (read-only view for hosts and tests). */
  get state(): FlowState {
    return this.flow;
  }

  /** Applies a screen change held back by `preventDefault()` on `idv-before-step-change`. */
  proceed(): void {
    const pending = this.#pending;
    this.#pending = null;
    if (pending) this.#apply(pending);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') || !this.hasUpdated) void this.#loadLocale();
    if (changed.has('verifyUrl') || changed.has('token') || changed.has('apiBase') || changed.has('api')) {
      this.#connectClient();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('session')) this.#applyBranding();
  }

  // ---- credentials and loading -------------------------------------------------------------------

  #connectClient(): void {
    let client: VerifyApiClient | null = this.api;
    let key = 'custom';
    if (!client) {
      const parsed = this.verifyUrl
        ? parseVerifyUrl(this.verifyUrl)
        : this.token && this.apiBase
          ? { apiBase: this.apiBase, token: this.token }
          : null;
      client = parsed ? new VerifyApi(parsed) : null;
      key = parsed ? `${parsed.apiBase} ${parsed.token}` : '';
      this.#visionBase = parsed ? visionAssetsUrl(parsed.apiBase) : null;
    } else {
      this.#visionBase = null;
    }
    if (client && key === this.#clientKey && (key !== 'custom' || client === this.#client)) return;
    const replacing = this.#client !== null;
    this.#client = client;
    this.#clientKey = key;
    if (!client) {
      // Frameworks often set attributes right after creating the element: wait a frame before
      // declaring the link missing.
      queueMicrotask(() => {
        if (!this.#client && this.isConnected) this.#showMissing();
      });
      return;
    }
    this.missing = false;
    // A new token is a new visit: `idv-ready` again, and what the last one saw is forgotten.
    this.#readyFired = false;
    this.#exhausted = false;
    this.closed = false;
    if (replacing) this.#dispatch({ type: 'token_replaced' });
    void this.#loadSession();
  }

  #showMissing(): void {
    if (this.missing) return;
    this.missing = true;
    this.#emitError('missing_token', this.t('missingBody'), false);
  }

  async #loadLocale(): Promise<void> {
    const request = ++this.#localeRequest;
    const wanted = negotiateLocale([
      this.locale,
      ...(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
    ]);
    let messages = en;
    try {
      messages = (await loadMessages(wanted)) as typeof en;
    } catch {
      // A chunk that failed to load (offline, CDN hiccup): English is better than nothing.
    }
    if (request !== this.#localeRequest) return;
    this.t = translator(messages);
    this.language = messages === en ? 'en' : wanted;
    this.#announce();
  }

  async #loadSession(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#load?.abort();
    const controller = new AbortController();
    this.#load = controller;
    try {
      const session = await client.getSession(controller.signal);
      if (controller.signal.aborted) return;
      this.#onSession(session);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
      this.#handleGlobalError(error);
    }
  }

  #onSession(session: SessionView): void {
    const first = !this.#readyFired;
    if (first) this.#arrivedFinished = !['created', 'collecting'].includes(session.status);
    else if (session.status === 'collecting') this.#arrivedFinished = false;
    this.#noteAttempts(session);
    this.session = session;
    // `idv-ready` before the first `idv-step-change`: hosts set up on ready and then follow the steps.
    if (first) {
      this.#readyFired = true;
      this.dispatchEvent(
        new IdvReadyEvent({
          session_id: session.session_id ?? null,
          status: session.status,
          steps: buildContext(session).steps,
          sandbox: session.sandbox === true,
        }),
      );
    }
    this.#dispatch({ type: 'session_loaded', session });
  }

  /** Attempts left as the session view tells them (a resumed visit), and a step that has none left. */
  #noteAttempts(session: SessionView): void {
    const left = { ...this.attemptsLeft };
    for (const step of session.steps ?? []) {
      const remaining = step.attempts_remaining;
      if (typeof remaining === 'number' && remaining < ATTEMPTS_PER_STEP) left[step.step] = remaining;
    }
    this.attemptsLeft = left;
    const none = (session.steps ?? []).some((s) => s.attempts_remaining === 0);
    if (none && session.status === 'rejected') this.#exhaust();
  }

  #onAttempts(event: AttemptsEvent): void {
    event.stopPropagation();
    if (event.failed || event.step in this.attemptsLeft) {
      this.attemptsLeft = { ...this.attemptsLeft, [event.step]: event.remaining };
    }
    if (event.remaining === 0 && event.sessionStatus && event.sessionStatus !== 'collecting') {
      // The server rejected the session with the last attempt: read it to reach the final screen.
      this.#exhaust();
      void this.#loadSession();
    }
  }

  #exhaust(): void {
    if (this.#exhausted) return;
    this.#exhausted = true;
    const tenant = this.session?.tenant?.name || this.t('tenantFallback');
    this.#emitError('attempts_exhausted', this.t('attemptsExhaustedBody', { tenant }), false);
  }

  // ---- the state machine -------------------------------------------------------------------------

  #dispatch(event: FlowEvent): void {
    const next = transition(this.flow, event);
    if (next === this.flow) return;
    if (screenName(next) === screenName(this.flow)) {
      this.#apply(next, false);
      return;
    }
    const detail = this.#changeDetail(this.flow, next);
    const before = new IdvBeforeStepChangeEvent(detail);
    // Only real steps can be held back; error and result screens always show.
    if (next.phase === 'step' && this.flow.phase !== 'loading' && !this.dispatchEvent(before)) {
      this.#pending = next;
      return;
    }
    this.#apply(next);
  }

  #apply(next: FlowState, moved = true): void {
    const previous = this.flow;
    this.flow = next;
    this.#pending = null;
    if (!moved) return;
    this.handoff = false;
    // Loading a fresh link is not a screen of its own: its `idv-ready` comes before any step change.
    if (next.phase !== 'loading')
      this.dispatchEvent(new IdvStepChangeEvent(this.#changeDetail(previous, next)));
    this.#announce();
    this.#afterMove(previous, next);
  }

  #afterMove(previous: FlowState, next: FlowState): void {
    this.#stopPolling();
    if (next.phase === 'result') {
      if (next.status === 'processing') this.#schedulePoll();
      else if (TERMINAL_STATUSES.includes(next.status) && this.#completedStatus !== next.status) {
        this.#completedStatus = next.status;
        this.dispatchEvent(
          new IdvCompleteEvent({ session_id: this.session?.session_id ?? null, status: next.status }),
        );
      }
    }
    if (next.phase === 'expired' && next.reason !== 'invalid_link') {
      const code = next.reason === 'session_expired' ? 'session_expired' : 'verify_token_expired';
      this.dispatchEvent(new IdvTokenExpiredEvent({ code, reason: next.reason }));
    }
    // The first screen keeps the host page's focus; later ones take it so screen readers follow.
    if (previous.phase !== 'loading') void this.#focusHeading();
  }

  #changeDetail(from: FlowState, to: FlowState): StepChangeDetail {
    const step = to.phase === 'step' ? stepOfScreen(to.screen) : null;
    const progress = to.phase === 'step' ? progressOf(to.screen, to.ctx) : { current: 0, total: 0 };
    return {
      from: screenName(from),
      to: screenName(to),
      step,
      index: progress.current,
      total: progress.total,
    };
  }

  #announce(): void {
    const state = this.flow;
    if (state.phase !== 'step') {
      this.announcement = '';
      return;
    }
    const { current, total } = progressOf(state.screen, state.ctx);
    const title = this.t(STEP_TITLE[stepOfScreen(state.screen)]);
    this.announcement = this.t('stepAnnouncement', { current, total, title });
  }

  async #focusHeading(): Promise<void> {
    await this.updateComplete;
    const body = this.renderRoot.querySelector('[part~="body"]');
    const child = body?.firstElementChild as (HTMLElement & { focusHeading?: () => Promise<void> }) | null;
    if (child?.focusHeading) await child.focusHeading();
    else body?.querySelector<HTMLElement>('h2')?.focus();
  }

  // ---- errors ------------------------------------------------------------------------------------

  #emitError(code: string, message: string, recoverable: boolean): void {
    this.dispatchEvent(new IdvErrorEvent({ code, message, recoverable }));
  }

  /** Errors of the shell's own calls (load, submit, poll): expiry and network get their own screens. */
  #handleGlobalError(error: unknown): void {
    if (error instanceof VerifyApiError && error.isExpiry) {
      // A token that worked in this visit and is now refused was replaced (a fresh link was issued):
      // expired, so the host can hand over the new one. Refused from the start, the link is invalid.
      const refused = expiryReason(error);
      const reason = refused === 'invalid_link' && this.#readyFired ? 'token_expired' : refused;
      // A fresh link fixes an expired or an invalid one, not an expired session.
      this.#emitError(error.code, problemMessage(error, this.t), reason !== 'session_expired');
      this.#dispatch({ type: 'token_expired', reason });
      return;
    }
    const code = error instanceof VerifyApiError ? error.code : 'network_error';
    this.#emitError(code, this.t('offlineBody'), true);
    this.#dispatch({ type: 'network_failed' });
  }

  #onStepFailed(event: StepFailedEvent): void {
    const error = event.error;
    if (error instanceof VerifyApiError && error.isExpiry) {
      event.handled = true;
      this.#handleGlobalError(error);
      return;
    }
    if (
      error instanceof VerifyApiError &&
      (error.code === 'invalid_state_transition' || error.code === 'steps_incomplete')
    ) {
      // The session moved on elsewhere (another tab, the phone, attempts used up): re-read it.
      event.handled = true;
      void this.#loadSession();
      return;
    }
    const code = error instanceof VerifyApiError ? error.code : 'network_error';
    // The step keeps what the end-user typed and shows the message in place.
    this.#emitError(code, problemMessage(error, this.t), true);
  }

  #retry(): void {
    const state = this.flow;
    if (state.phase !== 'offline') return;
    this.#dispatch({ type: 'retry' });
    const resumed = state.resume;
    if (resumed.phase === 'loading') void this.#loadSession();
    else if (resumed.phase === 'submitting') void this.#submit(this.#lastOutcome);
  }

  // ---- submit, polling, handoff ------------------------------------------------------------------

  #lastOutcome: SandboxOutcome | undefined;

  async #submit(outcome: SandboxOutcome | undefined): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#lastOutcome = outcome;
    if (this.flow.phase !== 'submitting') this.#dispatch({ type: 'submit' });
    if (this.flow.phase !== 'submitting') return;
    try {
      const session = await client.complete(this.session?.sandbox ? outcome : undefined);
      this.#dispatch({ type: 'status_changed', status: session?.status ?? 'processing' });
    } catch (error) {
      if (error instanceof VerifyApiError && error.code === 'steps_incomplete') {
        await this.#loadSession();
        return;
      }
      this.#handleGlobalError(error);
    }
  }

  #schedulePoll(): void {
    this.#stopPolling();
    if (!this.isConnected) return;
    this.#pollTimer = setTimeout(() => void this.#poll(), this.pollInterval);
  }

  #stopPolling(): void {
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
  }

  /** One status read while checks run or the phone carries on; quiet about blips, loud about expiry. */
  async #poll(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      const session = await client.getSession();
      this.session = session;
      const state = this.flow;
      if (this.handoff) {
        const done = (session.steps ?? []).filter((s) => s.status === 'completed').length;
        const before = state.phase === 'step' ? state.ctx.completed.length : 0;
        if (session.status !== 'collecting' || done !== before) {
          this.handoff = false;
          this.#dispatch({ type: 'session_loaded', session });
          return;
        }
      } else if (state.phase === 'result' && session.status !== state.status) {
        // Back to collecting means a resubmission was requested: the view says which steps to redo.
        this.#dispatch(
          session.status === 'collecting'
            ? { type: 'session_loaded', session }
            : { type: 'status_changed', status: session.status },
        );
        return;
      }
    } catch (error) {
      if (error instanceof VerifyApiError && error.isExpiry) {
        this.handoff = false;
        this.#handleGlobalError(error);
        return;
      }
    }
    this.#schedulePoll();
  }

  #openHandoff(): void {
    this.handoff = true;
    this.#schedulePoll();
    void this.#focusHeading();
  }

  #closeHandoff(): void {
    this.handoff = false;
    this.#stopPolling();
    void this.#focusHeading();
  }

  // ---- branding ----------------------------------------------------------------------------------

  #applyBranding(): void {
    const root = this.shadowRoot;
    if (!root || typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) return;
    const declarations = brandingDeclarations(this.session?.tenant?.branding);
    // A constructed stylesheet, not a style attribute: allowed under a CSP without 'unsafe-inline'.
    if (!this.#brandSheet) {
      if (!declarations) return;
      this.#brandSheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#brandSheet];
    }
    this.#brandSheet.replaceSync(declarations ? `:host{${declarations}}` : '');
  }

  // ---- rendering ---------------------------------------------------------------------------------

  override render() {
    const { t } = this;
    const state = this.flow;
    const sandbox = this.session?.sandbox === true;
    const progress = state.phase === 'step' ? progressOf(state.screen, state.ctx) : null;
    return html`
      <div
        part="base"
        class="base"
        role="region"
        aria-label=${t('title')}
        lang=${this.language}
        dir=${isRtl(this.language) ? 'rtl' : 'ltr'}
      >
        ${sandbox ? html`<p part="sandbox-banner" class="banner">${t('sandboxBanner')}</p>` : null}
        <div part="header" class="header">
          <p class="title">${this.session?.tenant?.name ?? t('title')}</p>
          ${progress ? html`<p part="progress" class="muted" aria-hidden="true">${t('stepOf', progress)}</p>` : null}
        </div>
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
        ${this.#renderAttempts()}
        <div part="body" @idv-attempts=${(e: AttemptsEvent) => this.#onAttempts(e)}>${this.#renderBody()}</div>
        ${this.#renderHandoffButton()}
      </div>
    `;
  }

  #renderBody() {
    const { t } = this;
    if (this.missing) return this.#message('missingTitle', 'missingBody');
    if (this.closed) {
      const tenant = this.session?.tenant?.name || t('tenantFallback');
      return html`<h2 tabindex="-1">${t('closedTitle')}</h2>
        <p>${this.#hosted() ? t('closedHostedBody') : t('closedBody', { tenant })}</p>`;
    }
    if (this.handoff) {
      return html`<idv-handoff-view .api=${this.#client} .t=${t} @idv-handoff-closed=${() => this.#closeHandoff()}></idv-handoff-view>`;
    }
    const state = this.flow;
    switch (state.phase) {
      case 'loading':
        return html`<h2 tabindex="-1">${t('title')}</h2>
          <div class="spinner" aria-hidden="true"></div>
          <p role="status">${t('loading')}</p>`;
      case 'offline':
        return html`${this.#message('offlineTitle', 'offlineBody')}
          <div class="actions"><button part="button primary" @click=${() => this.#retry()}>${t('retry')}</button></div>`;
      case 'expired':
        return state.reason === 'invalid_link'
          ? this.#message('invalidLinkTitle', 'invalidLinkBody')
          : this.#message(
              'expiredTitle',
              state.reason === 'token_expired' ? 'expiredTokenBody' : 'expiredSessionBody',
            );
      case 'submitting':
        return html`<h2 tabindex="-1">${t('submittingTitle')}</h2>
          <div class="spinner" aria-hidden="true"></div>`;
      case 'result':
        return this.#renderResult(state.status);
      case 'step':
        return this.#renderStep(state);
    }
  }

  #message(title: MessageKey, body: MessageKey) {
    return html`<h2 tabindex="-1">${this.t(title)}</h2>
      <p>${this.t(body)}</p>`;
  }

  /** On the hosted page the widget's link is the page's own address. */
  #hosted(): boolean {
    return typeof location !== 'undefined' && this.verifyUrl === `${location.origin}${location.pathname}`;
  }

  #close(status: SessionStatus): void {
    const redirecting = Boolean(this.session?.redirect_url);
    this.dispatchEvent(new IdvExitEvent({ status }));
    // With a `redirect_url` the host (or the hosted page) takes the end-user away; without, say goodbye.
    if (!redirecting) {
      this.closed = true;
      void this.#focusHeading();
    }
  }

  #renderAttempts() {
    const state = this.flow;
    if (this.handoff || state.phase !== 'step' || !ATTEMPT_SCREENS.includes(state.screen)) return null;
    const count = this.attemptsLeft[stepOfScreen(state.screen) as StepId];
    if (count === undefined) return null;
    return html`<p part="attempts" class="muted" role="status">${this.t('attemptsRemaining', { count })}</p>`;
  }

  #renderResult(status: SessionStatus) {
    const { t } = this;
    const tenant = this.session?.tenant?.name || t('tenantFallback');
    const text =
      status === 'rejected' && this.#exhausted
        ? { title: 'attemptsExhaustedTitle' as const, body: 'attemptsExhaustedBody' as const }
        : this.#arrivedFinished && status !== 'cancelled'
          ? status === 'processing'
            ? { title: 'submittedTitle' as const, body: 'submittedBody' as const }
            : { title: 'finishedTitle' as const, body: 'finishedBody' as const }
          : resultText(status);
    const reasons = (this.session?.reasons ?? []).map((r) => reasonMessage(r, t, tenant)).filter(Boolean);
    const waiting = status === 'processing' && !this.#arrivedFinished;
    return html`
      <h2 tabindex="-1">${t(text.title)}</h2>
      ${waiting ? html`<div class="spinner" aria-hidden="true"></div>` : null}
      <p role=${waiting ? 'status' : 'none'}>${t(text.body, { tenant })}</p>
      ${reasons.length ? html`<ul>${reasons.map((reason) => html`<li>${reason}</li>`)}</ul>` : null}
      ${
        waiting
          ? null
          : html`<div class="actions">
              <button part="button primary" @click=${() => this.#close(status)}>
                ${t('close')}
              </button>
            </div>`
      }
    `;
  }

  #renderStep(state: Extract<FlowState, { phase: 'step' }>) {
    const { t } = this;
    const { ctx } = state;
    const api = this.#client;
    const common = {
      onIntent: (e: FlowIntentEvent) => {
        e.stopPropagation();
        const event = e.flowEvent;
        if (event.type === 'camera_failed') {
          const message = this.t(event.reason === 'denied' ? 'captureDenied' : 'captureUnavailable');
          this.#emitError(`camera_${event.reason}`, message, this.allowUpload);
        }
        this.#dispatch(event);
      },
      onFailed: (e: StepFailedEvent) => this.#onStepFailed(e),
    };
    switch (state.screen) {
      case 'consent':
        return html`<idv-consent-step
          .api=${api}
          .t=${t}
          .tenantName=${this.session?.tenant?.name ?? ''}
          .locale=${this.language}
          @idv-flow-intent=${common.onIntent}
          @idv-step-failed=${common.onFailed}
        ></idv-consent-step>`;
      case 'document_type':
      case 'document_front':
      case 'document_back':
      case 'document_details':
        return html`<idv-document-step
          .api=${api}
          .t=${t}
          .screen=${state.screen}
          .documentTypes=${ctx.documentTypes}
          .documentType=${ctx.documentType}
          .country=${this.session?.country ?? ''}
          .locale=${this.language}
          .captureMode=${ctx.captureMode}
          .cameraIssue=${ctx.cameraIssue}
          .allowUpload=${this.allowUpload}
          @idv-flow-intent=${common.onIntent}
          @idv-step-failed=${common.onFailed}
        ></idv-document-step>`;
      case 'liveness':
        void defineLivenessStep();
        return html`<idv-liveness-step
          .api=${api}
          .t=${t}
          .locale=${this.language}
          .visionBase=${this.#visionBase}
          @idv-flow-intent=${common.onIntent}
          @idv-step-failed=${common.onFailed}
        ></idv-liveness-step>`;
      case 'proof_of_address':
      case 'business_document':
        return html`<idv-upload-step
          .api=${api}
          .t=${t}
          .step=${state.screen}
          .offered=${this.#offeredTypes(state.screen)}
          .cameraIssue=${ctx.cameraIssue}
          .allowUpload=${this.allowUpload}
          @idv-flow-intent=${common.onIntent}
          @idv-step-failed=${common.onFailed}
        ></idv-upload-step>`;
      case 'business_details':
        return html`<idv-business-details-step
          .api=${api}
          .t=${t}
          .country=${this.session?.country ?? ''}
          @idv-flow-intent=${common.onIntent}
          @idv-step-failed=${common.onFailed}
        ></idv-business-details-step>`;
      case 'review':
        return html`<idv-review-step
          .api=${api}
          .t=${t}
          .steps=${ctx.steps}
          .sandbox=${ctx.sandbox}
          @idv-submit-intent=${(e: SubmitIntentEvent) => this.#submit(e.sandboxOutcome)}
          @idv-step-failed=${common.onFailed}
        ></idv-review-step>`;
    }
  }

  #offeredTypes(step: 'proof_of_address' | 'business_document') {
    const offered = this.session?.accepted_document_types;
    return offered && !Array.isArray(offered) ? (offered[step] ?? null) : null;
  }

  #renderHandoffButton() {
    const state = this.flow;
    if (this.handoff || state.phase !== 'step' || !CAMERA_SCREENS.includes(state.screen)) return null;
    // On a phone or tablet there is no better camera to hand over to.
    if (isHandheld()) return null;
    return html`<div class="actions">
      <button part="button handoff" class="link" @click=${() => this.#openHandoff()}>${this.t('handoffButton')}</button>
    </div>`;
  }
}
