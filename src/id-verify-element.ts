import { css, html, LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { VerifyApiError } from './api/verify-api-error.ts';
import type { VerifyApiClient } from './api/verify-api.ts';
import type { SandboxOutcome, SessionStatus, SessionView, StepId } from './api/verify-api.ts';
import { isHandheld } from './components/handheld.ts';
import { sharedStyles } from './components/shared-styles.ts';
import { themeStyles } from './components/theme-styles.ts';
import { BrandingController } from './controllers/branding-controller.ts';
import { FocusController, stepAnnouncement } from './controllers/focus-controller.ts';
import { browserLanguages, LocaleController } from './controllers/locale-controller.ts';
import { NavigationController } from './controllers/navigation-controller.ts';
import { SessionController } from './controllers/session-controller.ts';
import { defineInnerElements, defineOnDemand, type OnDemandElement } from './define-inner-elements.ts';
import { IdvErrorEvent } from './events/idv-error-event.ts';
import { IdvExitEvent } from './events/idv-exit-event.ts';
import { progressOf, stepOfScreen } from './flow/build-context.ts';
import type { FlowEvent, FlowState, Screen } from './flow/flow-types.ts';
import type { MessageKey } from './i18n/en.ts';
import { isRtl } from './i18n/localize.ts';
import { problemMessage, reasonMessage } from './i18n/problem-message.ts';
import { resultText } from './result-text.ts';
import type {
  AttemptsEvent,
  FlowIntentEvent,
  StepFailedEvent,
  SubmitIntentEvent,
} from './steps/step-events.ts';

export type Theme = 'light' | 'dark' | 'auto';

/**
 * Not in the server's document: end-user-safe decision reasons a session view may carry once decided.
 * The server's `GET /v1/verify/session` sends none today; the widget words them when a server does.
 */
interface DecisionReasons {
  reasons?: { code: string; user_message?: string }[];
}

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
/**
 * The parts of the screens (inner elements with shadow roots of their own) that `<id-verify>` passes
 * on, so a page can style them with `id-verify::part(…)`. docs/embedding.md lists them.
 */
const SCREEN_PARTS = 'button, primary, choice, video, preview, shutter, qr, sandbox-outcome';

/**
 * Dispatches one of the element's documented events. Not `this.dispatchEvent` in the class: the
 * manifest analyzer would list an unnamed event beside the `@fires` ones.
 */
const fire = (target: EventTarget, event: Event): boolean => target.dispatchEvent(event);

/** `allow-upload` is on unless set to "false" (a plain boolean attribute could not default to on). */
const onUnlessFalse = {
  fromAttribute: (value: string | null) => value === null || value.toLowerCase() !== 'false',
  toAttribute: (value: boolean) => (value ? null : 'false'),
};

/**
 * `<id-verify>`: the whole end-user verification flow in one element. Give it the hosted-page link the
 * tenant's server received (`verify-url`), or the token and API origin separately.
 *
 * The element composes reactive controllers (src/controllers/): the session (credentials, loading,
 * polling, attempts), navigation (the flow state and its events), focus and announcements, locale and
 * branding; it renders the screens. docs/embedding.md documents everything listed here.
 *
 * @example
 *   <id-verify verify-url="https://verify.example.com/verify/vt_…" locale="fr" theme="auto"></id-verify>
 *
 * Events come in one order (docs/embedding.md, "Event order"): `idv-ready` first, once per session
 * token (again after a fresh `verify-url`), before any `idv-step-change`; then
 * `idv-before-step-change`/`idv-step-change` per screen; then `idv-complete`, `idv-exit` or `idv-error`.
 *
 * @fires idv-ready - first: the session loaded, before the first `idv-step-change`; once per token, again after a fresh `verify-url`. Detail `IdvReadyDetail` `{session_id, status, steps, sandbox}`
 * @fires idv-before-step-change - before another step's screen; cancelable: `preventDefault()` holds the current screen until `proceed()`. Detail `StepChangeDetail` `{from, to, step, index, total}`
 * @fires idv-step-change - a new screen is shown. Detail `StepChangeDetail` `{from, to, step, index, total}`
 * @fires idv-complete - the session reached a final status for this visit. Detail `IdvCompleteDetail` `{session_id, status}`
 * @fires idv-error - an error was shown; `attempts_exhausted` when a step has none left. Detail `IdvErrorDetail` `{code, message, recoverable}`
 * @fires idv-exit - the end-user pressed Close on a final screen (without a `redirect_url` a closing screen follows). Detail `IdvExitDetail` `{status}`
 * @fires idv-token-expired - the link or the session expired; for `token_expired` set a fresh `verify-url` to resume (not fired for an invalid link). Detail `IdvTokenExpiredDetail` `{code, reason}`
 *
 * @csspart base - the widget's frame
 * @csspart sandbox-banner - the sandbox notice
 * @csspart header - title and progress
 * @csspart progress - the "Step X of Y" text
 * @csspart attempts - the "Attempts left" notice on a capture step after a failed attempt
 * @csspart body - the current screen
 * @csspart button - the action buttons of every screen (document choices are `choice`; text-link buttons have no part)
 * @csspart primary - the main action of a screen (also a `button`)
 * @csspart handoff - the "Continue on your phone" button (also a `button`)
 * @csspart choice - a document type to choose
 * @csspart video - the live camera preview
 * @csspart shutter - the button that takes the photo (also a `button` and `primary`)
 * @csspart preview - the photo taken or chosen, before it is sent
 * @csspart qr - the QR code of "Continue on your phone"
 * @csspart sandbox-outcome - the sandbox's outcome picker on the review screen
 *
 * @cssproperty --idv-color-primary - buttons, focus ring, progress (light `#1f4fd1`, dark `#8fb0ff`)
 * @cssproperty --idv-color-on-primary - text on primary (light `#ffffff`, dark `#0b1530`)
 * @cssproperty --idv-color-primary-text - links and secondary buttons: primary with text contrast (light `#1f4fd1`, dark `#8fb0ff`)
 * @cssproperty --idv-color-background - widget background (light `#ffffff`, dark `#121418`)
 * @cssproperty --idv-color-surface - inputs and choices (light `#ffffff`, dark `#1c1f25`)
 * @cssproperty --idv-color-text - body text (light `#16181d`, dark `#eceef2`)
 * @cssproperty --idv-color-muted - hints and the progress text (light `#4f5562`, dark `#b4b9c4`)
 * @cssproperty --idv-color-border - input and card borders (light `#8a909c`, dark `#7d8391`)
 * @cssproperty --idv-color-danger - error messages (light `#b3261e`, dark `#ffb4ab`)
 * @cssproperty --idv-color-success - passed checks, good capture frame (light `#16794a`, dark `#6fdba0`)
 * @cssproperty --idv-color-banner - sandbox banner background (light `#fff4cc`, dark `#4a3b00`)
 * @cssproperty --idv-color-on-banner - sandbox banner text (light `#4a3b00`, dark `#fff4cc`)
 * @cssproperty --idv-font-family - all text (system UI fonts)
 * @cssproperty --idv-radius - corners of buttons, inputs, cards (`0.5rem`)
 * @cssproperty --idv-focus-ring - the keyboard focus outline (`3px solid var(--idv-color-primary)`)
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
  };

  /** The session's link `{verify_base_url}/verify/<token>`; the token is sent in `x-verify-token`, never in a URL. */
  declare verifyUrl: string | null;
  /** With `apiBase`, an alternative to `verifyUrl`. */
  declare token: string | null;
  /** The API origin (and path prefix, if any) for `token`. */
  declare apiBase: string | null;
  /** A BCP 47 tag; unset or unsupported, the session's locale, then the browser's languages, then English. */
  declare locale: string | null;
  /** Colour scheme: `light`, `dark`, or `auto` (follows `prefers-color-scheme`); reflected to the attribute. */
  declare theme: Theme;
  /** Offer file upload as well as the camera for documents (default on; `allow-upload="false"` turns it off). */
  declare allowUpload: boolean;
  /** Replaces the built-in fetch client (tests, custom transports). */
  declare api: VerifyApiClient | null;
  /** Milliseconds between status polls while the checks run or a phone carries on. */
  declare pollInterval: number;

  readonly #locale = new LocaleController(this, () => this.#announce());
  readonly #focus = new FocusController(this);
  readonly #navigation = new NavigationController(this, {
    moved: (_previous, next) => this.#moved(next),
    sessionId: () => this.#session.session?.session_id ?? null,
    focus: () => void this.#focus.focusHeading(),
  });
  readonly #session = new SessionController(this, {
    loaded: (session) => {
      this.#chooseLocale();
      this.#dispatch({ type: 'session_loaded', session });
    },
    failed: (error) => this.#fail(error),
    started: (replacing) => {
      this.#closed = false;
      if (replacing) this.#dispatch({ type: 'token_replaced' });
    },
    missing: () => this.#emitError('missing_token', this.#t('missingBody'), false),
    exhausted: () => {
      const tenant = this.#session.session?.tenant?.name || this.#t('tenantFallback');
      this.#emitError('attempts_exhausted', this.#t('attemptsExhaustedBody', { tenant }), false);
    },
    polled: (session) => this.#polled(session),
    wordsReady: () => this.#locale.ready,
  });
  /** "Continue on your phone" is open. */
  #handoff = false;
  /** Close was pressed on a final screen with nowhere to redirect to. */
  #closed = false;
  #lastOutcome: SandboxOutcome | undefined;

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
    new BrandingController(this, () => this.#session.session?.tenant?.branding);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Defined on first use, not at import: importing the package has no side effects (SSR-safe).
    defineInnerElements();
  }

  /** The current flow state (read-only): the screen shown and what the flow knows. */
  get state(): FlowState {
    return this.#navigation.state;
  }

  /**
   * Test hook (the accessibility audit shows each screen this way): shows a flow state as is, without
   * events. Not part of the API; the flow moves through its own events.
   *
   * @internal
   */
  get flow(): FlowState {
    return this.#navigation.state;
  }
  /** @internal */
  set flow(state: FlowState) {
    this.#navigation.show(state);
  }

  /** The last session view loaded (read-only), `null` before the first. */
  get session(): SessionView | null {
    return this.#session.session;
  }

  /** Applies a screen change held back by `preventDefault()` on `idv-before-step-change`. */
  proceed(): void {
    this.#navigation.proceed();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') || !this.hasUpdated) this.#chooseLocale();
    if (changed.has('verifyUrl') || changed.has('token') || changed.has('apiBase') || changed.has('api')) {
      this.#session.connect(this);
    }
  }

  get #t() {
    return this.#locale.t;
  }

  #chooseLocale(): void {
    const session = this.#session.session as { locale?: string | null } | null;
    void this.#locale.choose({
      attribute: this.locale,
      session: session?.locale,
      browser: browserLanguages(),
    });
  }

  #announce(): void {
    this.#focus.announce(stepAnnouncement(this.#navigation.state, this.#t));
  }

  #dispatch(event: FlowEvent): void {
    this.#navigation.dispatch(event);
  }

  /** After a move: the handoff closes, the live region speaks, polling follows the new screen. */
  #moved(next: FlowState): void {
    this.#handoff = false;
    this.#announce();
    this.#session.stopPolling();
    if (next.phase === 'result' && next.status === 'processing')
      this.#session.startPolling(this.pollInterval);
  }

  // ---- errors ------------------------------------------------------------------------------------

  #loading = new Set<OnDemandElement>();

  /** Fetches an on-demand screen's chunk once; a failed fetch shows the offline screen, whose retry renders (and fetches) again. */
  #ensureDefined(name: OnDemandElement): void {
    if (this.#loading.has(name) || customElements.get(name)) return;
    this.#loading.add(name);
    defineOnDemand(name)
      .catch((error: unknown) => this.#fail(error))
      .finally(() => this.#loading.delete(name));
  }

  #emitError(code: string, message: string, recoverable: boolean): void {
    fire(this, new IdvErrorEvent({ code, message, recoverable }));
  }

  /** Errors of the shell's own calls (load, submit, poll): expiry and network get their own screens. */
  #fail(error: unknown): void {
    const failure = this.#session.classify(error);
    if (failure.kind === 'expired') {
      this.#handoff = false;
      // A fresh link fixes an expired or an invalid one, not an expired session.
      this.#emitError(failure.code, problemMessage(error, this.#t), failure.reason !== 'session_expired');
      this.#dispatch({ type: 'token_expired', reason: failure.reason });
      return;
    }
    this.#emitError(failure.code, this.#t('offlineBody'), true);
    this.#dispatch({ type: 'network_failed' });
  }

  #onStepFailed(event: StepFailedEvent): void {
    const error = event.error;
    if (error instanceof VerifyApiError && error.isExpiry) {
      event.handled = true;
      this.#fail(error);
      return;
    }
    if (
      error instanceof VerifyApiError &&
      (error.code === 'invalid_state_transition' || error.code === 'steps_incomplete')
    ) {
      // The session moved on elsewhere (another tab, the phone, attempts used up): re-read it.
      event.handled = true;
      void this.#session.load();
      return;
    }
    const code = error instanceof VerifyApiError ? error.code : 'network_error';
    // The step keeps what the end-user typed and shows the message in place.
    this.#emitError(code, problemMessage(error, this.#t), true);
  }

  #onAttempts(event: AttemptsEvent): void {
    event.stopPropagation();
    this.#session.noteAttempt(event.step, event.remaining, event.failed, event.sessionStatus);
  }

  #retry(): void {
    const state = this.#navigation.state;
    if (state.phase !== 'offline') return;
    this.#dispatch({ type: 'retry' });
    const resumed = state.resume;
    if (resumed.phase === 'loading') void this.#session.load();
    else if (resumed.phase === 'submitting') void this.#submit(this.#lastOutcome);
  }

  // ---- submit, polling, handoff ------------------------------------------------------------------

  async #submit(outcome: SandboxOutcome | undefined): Promise<void> {
    const client = this.#session.client;
    if (!client) return;
    this.#lastOutcome = outcome;
    if (this.#navigation.state.phase !== 'submitting') this.#dispatch({ type: 'submit' });
    if (this.#navigation.state.phase !== 'submitting') return;
    try {
      const session = await client.complete(this.#session.session?.sandbox ? outcome : undefined);
      this.#dispatch({ type: 'status_changed', status: session?.status ?? 'processing' });
    } catch (error) {
      if (error instanceof VerifyApiError && error.code === 'steps_incomplete') {
        await this.#session.load();
        return;
      }
      this.#fail(error);
    }
  }

  /** A polled view: true when the flow moved on (polling stops, the new screen decides). */
  #polled(session: SessionView): boolean {
    const state = this.#navigation.state;
    if (this.#handoff) {
      const done = (session.steps ?? []).filter((s) => s.status === 'completed').length;
      const before = state.phase === 'step' ? state.ctx.completed.length : 0;
      if (session.status !== 'collecting' || done !== before) {
        this.#handoff = false;
        this.requestUpdate();
        this.#dispatch({ type: 'session_loaded', session });
        return true;
      }
    } else if (state.phase === 'result' && session.status !== state.status) {
      // Back to collecting means a resubmission was requested: the view says which steps to redo.
      this.#dispatch(
        session.status === 'collecting'
          ? { type: 'session_loaded', session }
          : { type: 'status_changed', status: session.status },
      );
      return true;
    }
    return false;
  }

  #openHandoff(): void {
    this.#handoff = true;
    this.requestUpdate();
    this.#session.startPolling(this.pollInterval);
    void this.#focus.focusHeading();
  }

  #closeHandoff(): void {
    this.#handoff = false;
    this.requestUpdate();
    this.#session.stopPolling();
    void this.#focus.focusHeading();
  }

  // ---- rendering ---------------------------------------------------------------------------------

  override render() {
    const t = this.#t;
    const state = this.#navigation.state;
    const session = this.#session.session;
    const language = this.#locale.language;
    const progress = state.phase === 'step' ? progressOf(state.screen, state.ctx) : null;
    return html`
      <div
        part="base"
        class="base"
        role="region"
        aria-label=${t('title')}
        lang=${language}
        dir=${isRtl(language) ? 'rtl' : 'ltr'}
      >
        ${session?.sandbox === true ? html`<p part="sandbox-banner" class="banner">${t('sandboxBanner')}</p>` : null}
        <div part="header" class="header">
          <p class="title">${session?.tenant?.name ?? t('title')}</p>
          ${progress ? html`<p part="progress" class="muted" aria-hidden="true">${t('stepOf', progress)}</p>` : null}
        </div>
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.#focus.announcement}</div>
        ${this.#renderAttempts()}
        <div part="body" @idv-attempts=${(e: AttemptsEvent) => this.#onAttempts(e)}>${this.#renderBody()}</div>
        ${this.#renderHandoffButton()}
      </div>
    `;
  }

  #renderBody() {
    const t = this.#t;
    if (this.#session.missing) return this.#message('missingTitle', 'missingBody');
    if (this.#closed) {
      const tenant = this.#session.session?.tenant?.name || t('tenantFallback');
      return html`<h2 tabindex="-1">${t('closedTitle')}</h2>
        <p>${this.#hosted() ? t('closedHostedBody') : t('closedBody', { tenant })}</p>`;
    }
    if (this.#handoff) {
      this.#ensureDefined('idv-handoff-view');
      return html`<idv-handoff-view
        exportparts=${SCREEN_PARTS}
        .api=${this.#session.client}
        .t=${t}
        @idv-handoff-closed=${() => this.#closeHandoff()}
      ></idv-handoff-view>`;
    }
    const state = this.#navigation.state;
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
    return html`<h2 tabindex="-1">${this.#t(title)}</h2>
      <p>${this.#t(body)}</p>`;
  }

  /** On the hosted page the widget's link is the page's own address. */
  #hosted(): boolean {
    return typeof location !== 'undefined' && this.verifyUrl === `${location.origin}${location.pathname}`;
  }

  #close(status: SessionStatus): void {
    const redirecting = Boolean(this.#session.session?.redirect_url);
    fire(this, new IdvExitEvent({ status }));
    // With a `redirect_url` the host (or the hosted page) takes the end-user away; without, say goodbye.
    if (!redirecting) {
      this.#closed = true;
      this.requestUpdate();
      void this.#focus.focusHeading();
    }
  }

  #renderAttempts() {
    const state = this.#navigation.state;
    if (this.#handoff || state.phase !== 'step' || !ATTEMPT_SCREENS.includes(state.screen)) return null;
    const count = this.#session.attemptsLeft[stepOfScreen(state.screen) as StepId];
    if (count === undefined) return null;
    return html`<p part="attempts" class="muted" role="status">${this.#t('attemptsRemaining', { count })}</p>`;
  }

  #renderResult(status: SessionStatus) {
    const t = this.#t;
    const session: (SessionView & DecisionReasons) | null = this.#session.session;
    const arrivedFinished = this.#session.arrivedFinished;
    const tenant = session?.tenant?.name || t('tenantFallback');
    const text =
      status === 'rejected' && this.#session.exhausted
        ? { title: 'attemptsExhaustedTitle' as const, body: 'attemptsExhaustedBody' as const }
        : arrivedFinished && status !== 'cancelled'
          ? status === 'processing'
            ? { title: 'submittedTitle' as const, body: 'submittedBody' as const }
            : { title: 'finishedTitle' as const, body: 'finishedBody' as const }
          : resultText(status);
    const reasons = (session?.reasons ?? []).map((r) => reasonMessage(r, t, tenant)).filter(Boolean);
    const waiting = status === 'processing' && !arrivedFinished;
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
    const t = this.#t;
    const { ctx } = state;
    const api = this.#session.client;
    const session = this.#session.session;
    const language = this.#locale.language;
    const onIntent = (e: FlowIntentEvent) => {
      e.stopPropagation();
      const event = e.flowEvent;
      if (event.type === 'camera_failed') {
        const message = this.#t(event.reason === 'denied' ? 'captureDenied' : 'captureUnavailable');
        this.#emitError(`camera_${event.reason}`, message, this.allowUpload);
      }
      this.#dispatch(event);
    };
    const onFailed = (e: StepFailedEvent) => this.#onStepFailed(e);
    switch (state.screen) {
      case 'consent':
        return html`<idv-consent-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .tenantName=${session?.tenant?.name ?? ''}
          .locale=${language}
          @idv-flow-intent=${onIntent}
          @idv-step-failed=${onFailed}
        ></idv-consent-step>`;
      case 'document_type':
      case 'document_front':
      case 'document_back':
      case 'document_details':
        return html`<idv-document-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .screen=${state.screen}
          .documentTypes=${ctx.documentTypes}
          .documentType=${ctx.documentType}
          .country=${session?.country ?? ''}
          .locale=${language}
          .captureMode=${ctx.captureMode}
          .cameraIssue=${ctx.cameraIssue}
          .allowUpload=${this.allowUpload}
          .offerHandoff=${!isHandheld()}
          @idv-flow-intent=${onIntent}
          @idv-step-failed=${onFailed}
          @idv-handoff-request=${() => this.#openHandoff()}
        ></idv-document-step>`;
      case 'liveness':
        this.#ensureDefined('idv-liveness-step');
        return html`<idv-liveness-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .locale=${language}
          .visionBase=${this.#session.visionBase}
          @idv-flow-intent=${onIntent}
          @idv-step-failed=${onFailed}
        ></idv-liveness-step>`;
      case 'proof_of_address':
      case 'business_document':
        this.#ensureDefined('idv-upload-step');
        return html`<idv-upload-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .step=${state.screen}
          .offered=${this.#offeredTypes(state.screen)}
          .cameraIssue=${ctx.cameraIssue}
          .allowUpload=${this.allowUpload}
          @idv-flow-intent=${onIntent}
          @idv-step-failed=${onFailed}
        ></idv-upload-step>`;
      case 'business_details':
        this.#ensureDefined('idv-business-details-step');
        return html`<idv-business-details-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .country=${session?.country ?? ''}
          @idv-flow-intent=${onIntent}
          @idv-step-failed=${onFailed}
        ></idv-business-details-step>`;
      case 'review':
        return html`<idv-review-step
          exportparts=${SCREEN_PARTS}
          .api=${api}
          .t=${t}
          .steps=${ctx.steps}
          .sandbox=${ctx.sandbox}
          @idv-submit-intent=${(e: SubmitIntentEvent) => this.#submit(e.sandboxOutcome)}
          @idv-step-failed=${onFailed}
        ></idv-review-step>`;
    }
  }

  #offeredTypes(step: 'proof_of_address' | 'business_document') {
    const offered = this.#session.session?.accepted_document_types;
    return offered && !Array.isArray(offered) ? (offered[step] ?? null) : null;
  }

  #renderHandoffButton() {
    const state = this.#navigation.state;
    if (this.#handoff || state.phase !== 'step' || !CAMERA_SCREENS.includes(state.screen)) return null;
    // On a phone or tablet there is no better camera to hand over to.
    if (isHandheld()) return null;
    return html`<div class="actions">
      <button part="button handoff" class="link" @click=${() => this.#openHandoff()}>${this.#t('handoffButton')}</button>
    </div>`;
  }
}
