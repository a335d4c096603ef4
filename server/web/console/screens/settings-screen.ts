import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations, svg } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { formatNumber } from '../ui/format.ts';
import { parseWatchlistFile } from '../ui/watchlist-file.ts';
import { actionKey } from '../ui/widgets.ts';

type Tenant = Schemas['Tenant'];
type Watchlist = Schemas['Watchlist'];

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The tenant fields this page edits, as `PATCH /v1/tenant` takes them. */
type TenantChanges = Partial<
  Pick<
    Tenant,
    | 'name'
    | 'branding'
    | 'allowed_origins'
    | 'minimum_age'
    | 'document_authenticity'
    | 'proof_of_address_max_age_days'
    | 'attempts_per_step'
    | 'require_second_factor'
  >
>;

/**
 * `/console/settings` (`tenant:write`): tenant name, branding (colours as `#rrggbb`, logo as an https URL),
 * allowed origins, minimum age, the document authenticity policy, the maximum age of a proof of
 * address and the attempts per step of new sessions; and the environment's watchlist, replaced by uploading a JSON or CSV file. Only changed fields
 * are sent.
 */
export class SettingsScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    tenant: { state: true },
    watchlist: { state: true },
    busy: { state: true },
    message: { state: true },
    formError: { state: true },
    watchlistMessage: { state: true },
    watchlistError: { state: true },
  };

  declare tenant: Tenant | null;
  declare watchlist: Watchlist | null;
  declare busy: boolean;
  declare message: string;
  declare formError: unknown;
  declare watchlistMessage: string;
  declare watchlistError: unknown;

  constructor() {
    super();
    this.tenant = null;
    this.watchlist = null;
    this.busy = false;
    this.message = '';
    this.formError = null;
    this.watchlistMessage = '';
    this.watchlistError = null;
  }

  /**
   * The tenant and the environment's watchlist, as the form and the watchlist section start from (saving
   * and uploading replace them with the server's answer, so they live in `tenant` and `watchlist`).
   */
  readonly #settings = new Task(this, {
    args: () => [this.ctx.environment, this.can('watchlist:read')] as const,
    task: ([, mayReadWatchlist], { signal }) =>
      Promise.all([
        this.api.get('/v1/tenant', { signal }),
        mayReadWatchlist ? this.api.get('/v1/watchlist', { signal }) : Promise.resolve(null),
      ]),
    onComplete: ([tenant, watchlist]) => {
      this.tenant = tenant;
      this.watchlist = watchlist;
    },
  });

  /** The form's values that differ from the tenant as loaded. */
  #changes(form: HTMLFormElement, tenant: Tenant): TenantChanges {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const changes: TenantChanges = {};
    if (text('name') && text('name') !== tenant.name) changes.name = text('name');
    const branding: Tenant['branding'] = {};
    if (text('primary_color')) branding.primary_color = text('primary_color').toLowerCase();
    if (text('accent_color')) branding.accent_color = text('accent_color').toLowerCase();
    if (text('logo_url')) branding.logo_url = text('logo_url');
    if (JSON.stringify(branding) !== JSON.stringify(normalisedBranding(tenant.branding)))
      changes.branding = branding;
    const origins = text('allowed_origins').split(/\s+/).filter(Boolean);
    if (JSON.stringify(origins) !== JSON.stringify(tenant.allowed_origins)) changes.allowed_origins = origins;
    const minimumAge = Number(text('minimum_age'));
    if (minimumAge !== tenant.minimum_age) changes.minimum_age = minimumAge;
    const authenticity = text('document_authenticity') as Tenant['document_authenticity'];
    if (authenticity && authenticity !== tenant.document_authenticity)
      changes.document_authenticity = authenticity;
    const poa = Number(text('proof_of_address_max_age_days'));
    if (poa !== tenant.proof_of_address_max_age_days) changes.proof_of_address_max_age_days = poa;
    const attempts = Number(text('attempts_per_step'));
    if (attempts !== tenant.attempts_per_step) changes.attempts_per_step = attempts;
    const requireSecondFactor = data.get('require_second_factor') === 'on';
    if (requireSecondFactor !== tenant.require_second_factor)
      changes.require_second_factor = requireSecondFactor;
    return changes;
  }

  async #save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const tenant = this.tenant;
    if (!tenant) return;
    const changes = this.#changes(event.currentTarget as HTMLFormElement, tenant);
    this.message = '';
    this.formError = null;
    if (Object.keys(changes).length === 0) {
      this.message = this.t('saved');
      return;
    }
    this.busy = true;
    try {
      this.tenant = await this.api.patch('/v1/tenant', { body: changes });
      this.message = this.t('saved');
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  async #upload(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.watchlistMessage = '';
    this.watchlistError = null;
    let entries: ReturnType<typeof parseWatchlistFile>;
    try {
      entries = parseWatchlistFile(file.name, await file.text());
    } catch (error) {
      this.watchlistError = new Error(
        this.t('watchlistUnreadable', { message: error instanceof Error ? error.message : String(error) }),
      );
      input.value = '';
      return;
    }
    this.busy = true;
    try {
      this.watchlist = await this.api.put('/v1/watchlist', {
        body: { entries },
        idempotencyKey: actionKey(),
      });
      this.watchlistMessage = this.t('watchlistReplaced', {
        count: formatNumber(this.ctx.locale, this.watchlist.entry_count),
      });
    } catch (error) {
      this.watchlistError = error;
    } finally {
      this.busy = false;
      input.value = '';
    }
  }

  #colour(name: 'primary_color' | 'accent_color', label: string, value: string | undefined) {
    const valid = value && HEX.test(value);
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <div class="row-actions">
        <input id=${name} name=${name} .value=${value ?? ''} pattern="#[0-9a-fA-F]{6}" placeholder="#1f4fd1"
          maxlength="7" spellcheck="false" />
        ${
          valid
            ? svg`<svg viewBox="0 0 20 20" width="44" height="44" aria-hidden="true"><rect width="20" height="20" rx="4" fill=${value} stroke="currentColor"></rect></svg>`
            : nothing
        }
      </div>
    </div>`;
  }

  #renderForm(tenant: Tenant) {
    const t = this.t;
    return html`<form @submit=${this.#save}>
      <h2>${t('generalTitle')}</h2>
      <div class="field">
        <label for="name">${t('tenantName')}</label>
        <input id="name" name="name" required maxlength="200" .value=${tenant.name} />
      </div>
      <h2>${t('brandingTitle')}</h2>
      <div class="form-grid">
        ${this.#colour('primary_color', t('primaryColor'), tenant.branding.primary_color)}
        ${this.#colour('accent_color', t('accentColor'), tenant.branding.accent_color)}
        <div class="field">
          <label for="logo_url">${t('logoUrl')}</label>
          <input id="logo_url" name="logo_url" type="url" maxlength="2048" placeholder="https://"
            .value=${tenant.branding.logo_url ?? ''} />
        </div>
      </div>
      <h2>${t('originsTitle')}</h2>
      <div class="field">
        <label for="allowed_origins">${t('allowedOrigins')}</label>
        <textarea id="allowed_origins" name="allowed_origins" aria-describedby="origins-hint" spellcheck="false"
          .value=${tenant.allowed_origins.join('\n')}></textarea>
        <p id="origins-hint" class="muted">${t('allowedOriginsHint')}</p>
      </div>
      <h2>${t('policyTitle')}</h2>
      <div class="form-grid">
        <div class="field">
          <label for="minimum_age">${t('minimumAge')}</label>
          <input id="minimum_age" name="minimum_age" type="number" min="13" max="99" required
            .value=${String(tenant.minimum_age)} />
        </div>
        <div class="field">
          <label for="poa">${t('poaMaxAge')}</label>
          <input id="poa" name="proof_of_address_max_age_days" type="number" min="1" max="366" required
            .value=${String(tenant.proof_of_address_max_age_days)} />
        </div>
        <div class="field">
          <label for="attempts_per_step">${t('attemptsPerStep')}</label>
          <input id="attempts_per_step" name="attempts_per_step" type="number" min="1" max="10" step="1" required
            aria-describedby="attempts-hint" .value=${String(tenant.attempts_per_step)} />
          <p id="attempts-hint" class="muted">${t('attemptsPerStepHint')}</p>
        </div>
      </div>
      <fieldset>
        <legend>${t('documentAuthenticity')}</legend>
        ${(['offline_checks', 'manual_review'] as const).map(
          (policy) => html`<div class="check">
            <input type="radio" id=${`auth-${policy}`} name="document_authenticity" value=${policy}
              ?checked=${tenant.document_authenticity === policy} />
            <label for=${`auth-${policy}`}>${t(`authenticity_${policy}`)}</label>
          </div>`,
        )}
      </fieldset>
      <div class="check">
        <input type="checkbox" id="require_second_factor" name="require_second_factor"
          aria-describedby="second-factor-hint" ?checked=${tenant.require_second_factor} />
        <label for="require_second_factor">${t('requireSecondFactor')}</label>
      </div>
      <p id="second-factor-hint" class="muted">${t('requireSecondFactorHint')}</p>
      ${this.renderError(this.formError)}
      <div class="actions"><button type="submit" data-write ?disabled=${this.busy}>${t('save')}</button></div>
    </form>`;
  }

  #renderWatchlist(watchlist: Watchlist) {
    const t = this.t;
    const source =
      watchlist.source === 'tenant'
        ? t('watchlistSource_tenant', {
            count: formatNumber(this.ctx.locale, watchlist.entry_count),
            time: this.date(watchlist.updated_at),
          })
        : t(watchlist.source === 'sample' ? 'watchlistSource_sample' : 'watchlistSource_none');
    return html`<section aria-labelledby="watchlist">
      <h2 id="watchlist">${t('watchlistTitle')} · ${t(watchlist.environment === 'sandbox' ? 'env_sandbox' : 'env_production')}</h2>
      <p>${source}</p>
      ${
        this.can('watchlist:write')
          ? html`<div class="field">
            <label for="watchlist-file">${t('watchlistUpload')}</label>
            <input id="watchlist-file" type="file" accept=".json,.csv,application/json,text/csv" data-write
              aria-describedby="watchlist-hint" ?disabled=${this.busy} @change=${this.#upload} />
            <p id="watchlist-hint" class="muted">${t('watchlistHint')}</p>
          </div>`
          : nothing
      }
      <div role="status">${this.watchlistMessage ? html`<p class="notice">${this.watchlistMessage}</p>` : nothing}</div>
      ${this.renderError(this.watchlistError)}
    </section>`;
  }

  override render() {
    const t = this.t;
    return html`${this.heading(t('navSettings'))} ${this.renderTask(this.#settings)}
      <div role="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.tenant ? this.#renderForm(this.tenant) : nothing}
      ${this.watchlist ? this.#renderWatchlist(this.watchlist) : nothing}`;
  }
}

/** Branding as the form would produce it, for comparing: only set members, colours lower case. */
function normalisedBranding(branding: Tenant['branding']): Tenant['branding'] {
  const result: Tenant['branding'] = {};
  if (branding.primary_color) result.primary_color = branding.primary_color.toLowerCase();
  if (branding.accent_color) result.accent_color = branding.accent_color.toLowerCase();
  if (branding.logo_url) result.logo_url = branding.logo_url;
  return result;
}

if (!customElements.get('idv-settings-screen')) customElements.define('idv-settings-screen', SettingsScreen);
