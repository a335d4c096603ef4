import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TenantBranding } from '../api/verify-api.ts';
import { brandingDeclarations } from '../components/branding.ts';

type BrandingHost = ReactiveControllerHost & { readonly shadowRoot: ShadowRoot | null };

/**
 * The tenant's branding on the host's `:host`, as a constructed stylesheet (not a style attribute, so
 * it works under a CSP without 'unsafe-inline'). Between the built-in palette and the page's own rules
 * on the element, which still win.
 *
 * @example
 *   #branding = new BrandingController(this, () => this.#session.session?.tenant?.branding);
 */
export class BrandingController implements ReactiveController {
  readonly #host: BrandingHost;
  readonly #branding: () => TenantBranding | undefined;
  #sheet: CSSStyleSheet | null = null;
  #applied: string | null = null;

  constructor(host: BrandingHost, branding: () => TenantBranding | undefined) {
    this.#host = host;
    this.#branding = branding;
    host.addController(this);
  }

  hostUpdated(): void {
    const root = this.#host.shadowRoot;
    if (!root || typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) return;
    const declarations = brandingDeclarations(this.#branding());
    if (declarations === this.#applied) return;
    this.#applied = declarations;
    if (!this.#sheet) {
      if (!declarations) return;
      this.#sheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#sheet];
    }
    this.#sheet.replaceSync(declarations ? `:host{${declarations}}` : '');
  }
}
