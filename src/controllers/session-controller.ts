import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { parseVerifyUrl } from '../api/parse-verify-url.ts';
import { expiryReason, VerifyApiError } from '../api/verify-api-error.ts';
import { VerifyApi, type VerifyApiClient } from '../api/verify-api.ts';
import type { SessionView, StepId } from '../api/verify-api.ts';
import { IdvReadyEvent } from '../events/idv-ready-event.ts';
import { buildContext } from '../flow/build-context.ts';
import type { ExpiryReason } from '../flow/flow-types.ts';
import { visionAssetsUrl } from '../liveness/vision-assets-url.ts';

type SessionHost = ReactiveControllerHost & EventTarget & { readonly isConnected: boolean };

/** Attempts per step (API.md §4): fewer left in a session view means one already failed. */

/** How the host names its session: a hosted-page link, a token and API origin, or its own client. */
export interface SessionCredentials {
  verifyUrl: string | null;
  token: string | null;
  apiBase: string | null;
  api: VerifyApiClient | null;
}

/** What the host does with what the session controller learns. */
export interface SessionHooks {
  /** A session view was loaded (not polled); `idv-ready` has fired before, for the first of a token. */
  loaded(session: SessionView): void;
  /** Loading failed (network, expiry, a problem): the host shows the offline or expired screen. */
  failed(error: unknown): void;
  /** New credentials: a new visit begins; `replacing` when a session of other credentials was open. */
  started(replacing: boolean): void;
  /** No link or token was given (checked a microtask after connecting). */
  missing(): void;
  /** A step has no attempts left: the server rejected the session for it. */
  exhausted(): void;
  /** A polled view; true when the host moved on (no next poll). */
  polled(session: SessionView): boolean;
  /**
   * Settles when the host can put the first answer into words (its messages have loaded, which runs
   * beside the session read): the first screen and the `idv-ready`/`idv-error` that go with it wait.
   */
  wordsReady?(): Promise<void>;
}

/** A failure the flow reacts to: the link or the session no longer works, or the network or server failed. */
export type SessionFailure =
  | { kind: 'expired'; code: string; reason: ExpiryReason }
  | { kind: 'network'; code: string };

/**
 * The session of one visit: turns the credentials into an API client, loads the session view (fires
 * `idv-ready` first, once per token), polls it while checks run or a phone carries on, and tracks the
 * attempts left per step. A new link or token is a new visit: `idv-ready` fires again.
 *
 * @example
 *   #session = new SessionController(this, hooks);
 *   willUpdate(changed) { if (changed.has('verifyUrl')) this.#session.connect(this); }
 */
export class SessionController implements ReactiveController {
  readonly #host: SessionHost;
  readonly #hooks: SessionHooks;
  #client: VerifyApiClient | null = null;
  #clientKey = '';
  /** The face model's URL on the verify server (beside the API), null with a custom `api`. */
  #visionBase: string | null = null;
  #load: AbortController | null = null;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #session: SessionView | null = null;
  #missing = false;
  #readyFired = false;
  /**
   * The session was already submitted or decided when this token's first view loaded: the person here
   * may not be the one who submitted (a shared or reused link), so no outcome is told as theirs.
   */
  #arrivedFinished = false;
  #attemptsLeft: Partial<Record<StepId, number>> = {};
  #exhausted = false;

  constructor(host: SessionHost, hooks: SessionHooks) {
    this.#host = host;
    this.#hooks = hooks;
    host.addController(this);
  }

  get client(): VerifyApiClient | null {
    return this.#client;
  }

  get visionBase(): string | null {
    return this.#visionBase;
  }

  /** The last session view loaded or polled. */
  get session(): SessionView | null {
    return this.#session;
  }

  /** No link or token was given. */
  get missing(): boolean {
    return this.#missing;
  }

  get arrivedFinished(): boolean {
    return this.#arrivedFinished;
  }

  /** Attempts left per step, once one has failed there. */
  get attemptsLeft(): Readonly<Partial<Record<StepId, number>>> {
    return this.#attemptsLeft;
  }

  /** A step ran out of attempts in this visit: the session is rejected for that. */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  hostDisconnected(): void {
    this.#load?.abort();
    this.stopPolling();
  }

  /** Builds the client for the credentials; a different one than before starts a new visit. */
  connect(credentials: SessionCredentials): void {
    let client = credentials.api;
    let key = 'custom';
    if (!client) {
      const { verifyUrl, token, apiBase } = credentials;
      const parsed = verifyUrl ? parseVerifyUrl(verifyUrl) : token && apiBase ? { apiBase, token } : null;
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
      // Frameworks often set attributes right after creating the element: wait a microtask before
      // declaring the link missing.
      queueMicrotask(() => {
        if (!this.#client && this.#host.isConnected && !this.#missing) {
          this.#missing = true;
          this.#host.requestUpdate();
          this.#hooks.missing();
        }
      });
      return;
    }
    this.#missing = false;
    // A new token is a new visit: `idv-ready` again, and what the last one saw is forgotten.
    this.#readyFired = false;
    this.#exhausted = false;
    this.#host.requestUpdate();
    this.#hooks.started(replacing);
    void this.load();
  }

  /** Reads the session view; a newer read aborts an older one. */
  async load(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#load?.abort();
    const controller = new AbortController();
    this.#load = controller;
    try {
      const session = await client.getSession(controller.signal);
      await this.#hooks.wordsReady?.();
      if (controller.signal.aborted) return;
      this.#loaded(session);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
      await this.#hooks.wordsReady?.();
      if (controller.signal.aborted) return;
      this.#hooks.failed(error);
    }
  }

  #loaded(session: SessionView): void {
    const first = !this.#readyFired;
    if (first) this.#arrivedFinished = !['created', 'collecting'].includes(session.status);
    else if (session.status === 'collecting') this.#arrivedFinished = false;
    this.#session = session;
    this.#host.requestUpdate();
    // `idv-ready` first: before the first `idv-step-change`, and before an error the view reveals.
    if (first) {
      this.#readyFired = true;
      this.#host.dispatchEvent(
        new IdvReadyEvent({
          session_id: session.session_id ?? null,
          status: session.status,
          steps: buildContext(session).steps,
          sandbox: session.sandbox === true,
        }),
      );
    }
    this.#noteAttempts(session);
    this.#hooks.loaded(session);
  }

  /** Attempts left as the session view tells them (a resumed visit), and a step that has none left. */
  #noteAttempts(session: SessionView): void {
    const left = { ...this.#attemptsLeft };
    // Every step starts with the tenant's attempts_per_step (1–10), which the view does not carry; a step
    // with fewer left than the most any step has was tried (consent never spends one, so it keeps the full
    // count whenever it is asked).
    const steps = session.steps ?? [];
    const allowed = Math.max(0, ...steps.map((step) => step.attempts_remaining ?? 0));
    for (const step of steps) {
      const remaining = step.attempts_remaining;
      if (typeof remaining === 'number' && remaining < allowed) left[step.step] = remaining;
    }
    this.#attemptsLeft = left;
    const none = (session.steps ?? []).some((s) => s.attempts_remaining === 0);
    if (none && session.status === 'rejected') this.#exhaust();
  }

  /** A step reported an attempt's outcome (an upload, a selfie check). */
  noteAttempt(step: StepId, remaining: number, failed: boolean, sessionStatus?: string): void {
    if (failed || step in this.#attemptsLeft) {
      this.#attemptsLeft = { ...this.#attemptsLeft, [step]: remaining };
      this.#host.requestUpdate();
    }
    if (remaining === 0 && sessionStatus && sessionStatus !== 'collecting') {
      // The server rejected the session with the last attempt: read it to reach the final screen.
      this.#exhaust();
      void this.load();
    }
  }

  #exhaust(): void {
    if (this.#exhausted) return;
    this.#exhausted = true;
    this.#hooks.exhausted();
  }

  /**
   * What a failed call means for the flow. A token that worked in this visit and is now refused was
   * replaced (a fresh link was issued): expired, so the host can hand over the new one. Refused from
   * the start, the link is invalid.
   */
  classify(error: unknown): SessionFailure {
    if (error instanceof VerifyApiError && error.isExpiry) {
      const refused = expiryReason(error);
      const reason = refused === 'invalid_link' && this.#readyFired ? 'token_expired' : refused;
      return { kind: 'expired', code: error.code, reason };
    }
    return { kind: 'network', code: error instanceof VerifyApiError ? error.code : 'network_error' };
  }

  /** Polls every `intervalMs` until the host moves on, the link expires or `stopPolling()`. */
  startPolling(intervalMs: number): void {
    this.stopPolling();
    if (!this.#host.isConnected) return;
    this.#pollTimer = setTimeout(() => void this.#poll(intervalMs), intervalMs);
  }

  stopPolling(): void {
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
  }

  /** One status read; quiet about blips (the next poll retries), loud about expiry. */
  async #poll(intervalMs: number): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      const session = await client.getSession();
      this.#session = session;
      this.#host.requestUpdate();
      if (this.#hooks.polled(session)) return;
    } catch (error) {
      if (error instanceof VerifyApiError && error.isExpiry) {
        this.#hooks.failed(error);
        return;
      }
    }
    this.startPolling(intervalMs);
  }
}
