import { css, html, LitElement, type PropertyDeclarations, svg } from 'lit';
import type { VerifyApiClient } from '../api/verify-api.ts';
import { FALLBACK_TRANSLATE, type Translate } from '../i18n/localize.ts';
import { qrPath } from './qr-path.ts';
import { sharedStyles } from './shared-styles.ts';

/** Internal: the end-user wants to go on with this device. */
export class HandoffClosedEvent extends Event {
  constructor() {
    super('idv-handoff-closed', { bubbles: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'idv-handoff-closed': HandoffClosedEvent;
  }
}

/**
 * "Continue on your phone": asks the server for a short-lived handoff link and shows it as a QR code.
 * The shell keeps polling the session meanwhile, so this screen moves on when the phone finishes.
 * The QR encoder is loaded only when this screen opens.
 *
 * @csspart qr - the QR code
 */
export class HandoffView extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      .qr {
        display: block;
        inline-size: min(16rem, 100%);
        aspect-ratio: 1;
        background: #fff;
        color: #000;
        padding: 0.75rem;
        border-radius: var(--idv-radius);
        margin-block: 1rem;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    api: { attribute: false },
    t: { attribute: false },
    modules: { state: true },
    failed: { state: true },
  };

  declare api: VerifyApiClient | null;
  declare t: Translate;
  declare modules: boolean[][] | null;
  declare failed: boolean;
  /** The link encoded, for tests and for hosts that want to show it as text too. */
  url = '';

  constructor() {
    super();
    this.api = null;
    this.t = FALLBACK_TRANSLATE;
    this.modules = null;
    this.failed = false;
  }

  // Loaded on demand, this element upgrades after the shell set `api`; lit applies such properties at the
  // first update, so the first load waits for it. A later reconnect asks for a fresh link.
  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) void this.#load();
  }

  override firstUpdated(): void {
    void this.#load();
  }

  async #load(): Promise<void> {
    if (!this.api) return;
    try {
      const [{ url }, { encode }] = await Promise.all([this.api.createHandoff(), import('uqr')]);
      this.url = url;
      // Medium error correction survives a glossy screen photographed at an angle.
      this.modules = encode(url, { ecc: 'M', border: 0 }).data;
    } catch {
      this.failed = true;
    }
  }

  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  override render() {
    const { t } = this;
    const size = this.modules?.length ?? 0;
    return html`
      <h2 tabindex="-1">${t('handoffTitle')}</h2>
      <p>${t('handoffBody')}</p>
      ${
        this.modules
          ? html`<svg part="qr" class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label=${t('handoffQr')}>
              ${svg`<path fill="currentColor" d=${qrPath(this.modules)}></path>`}
            </svg>
            <p role="status">${t('handoffWaiting')}</p>`
          : this.failed
            ? html`<p class="error" role="alert">${t('genericError')}</p>`
            : html`<div class="spinner" aria-hidden="true"></div>`
      }
      <div class="actions">
        <button part="button" class="secondary" @click=${() => this.dispatchEvent(new HandoffClosedEvent())}>
          ${t('handoffCancel')}
        </button>
      </div>
    `;
  }
}
