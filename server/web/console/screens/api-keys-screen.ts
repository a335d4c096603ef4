import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import type { Environment, ResponseOf, Schemas } from '../api/console-api.ts';
import { ENVIRONMENTS } from '../api/lists.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { actionKey, badge, secretOnce } from '../ui/widgets.ts';

type ApiKey = Schemas['ApiKey'];
type CreatedApiKey = ResponseOf<'/v1/api-keys', 'post'>;

/**
 * `/console/api-keys`: the tenant's keys of the environment shown (prefix and last four characters only),
 * creating one (its secret shown once; developers may create sandbox keys only, API.md §3) and revoking.
 * The console's token acts on the environment it names (`x-environment`), so the other environment's
 * keys are managed after switching to it.
 */
export class ApiKeysScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    created: { state: true },
    busy: { state: true },
    formError: { state: true },
    revoking: { state: true },
  };

  declare created: CreatedApiKey | null;
  declare busy: boolean;
  declare formError: unknown;
  /** The key waiting for the user to confirm its revocation. */
  declare revoking: string | null;

  constructor() {
    super();
    this.created = null;
    this.busy = false;
    this.formError = null;
    this.revoking = null;
  }

  /** The keys of the environment shown, again after one is created or revoked. */
  readonly #keys = new Task(this, {
    args: () => [this.ctx.environment] as const,
    task: async (_, { signal }) => (await this.api.get('/v1/api-keys', { signal })).data,
  });

  get #mayCreateProduction(): boolean {
    return this.ctx.me?.user.role === 'tenant_admin';
  }

  /** What may be created here: the environment shown, if this role may create keys in it. */
  get #creatableEnvironments() {
    return ENVIRONMENTS.filter(
      (env) => env === this.ctx.environment && (env === 'sandbox' || this.#mayCreateProduction),
    );
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    if (!name) {
      this.formError = new Error(this.t('fieldRequired'));
      return;
    }
    this.busy = true;
    this.formError = null;
    try {
      this.created = await this.api.post('/v1/api-keys', {
        // The select offers exactly ENVIRONMENTS.
        body: { name, environment: String(data.get('environment')) as Environment },
        idempotencyKey: actionKey(),
      });
      form.reset();
      await this.#keys.run();
      void this.focusAfterRender('idv-copy-field');
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  #askRevoke(key: ApiKey): void {
    this.revoking = key.api_key_id;
    void this.focusAfterRender('.confirm button');
  }

  async #revoke(key: ApiKey): Promise<void> {
    this.busy = true;
    this.formError = null;
    try {
      await this.api.delete('/v1/api-keys/{id}', { params: { id: key.api_key_id } });
      this.revoking = null;
      await this.#keys.run();
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  #renderKey(key: ApiKey) {
    const t = this.t;
    const mayRevoke = !key.revoked_at && (key.environment === 'sandbox' || this.#mayCreateProduction);
    return html`<tr>
      <th scope="row">${key.name}</th>
      <td>
        <span class=${key.environment === 'sandbox' ? 'badge sandbox-badge' : 'badge tone-neutral'}>
          ${t(key.environment === 'sandbox' ? 'env_sandbox' : 'env_production')}
        </span>
      </td>
      <td><code>${key.prefix}…${key.last4}</code></td>
      <td>${this.date(key.created_at)}</td>
      <td>${key.last_used_at ? this.date(key.last_used_at) : t('never')}</td>
      <td>${key.revoked_at ? html`${badge(t, 'keyStatus_', 'revoked')} ${this.date(key.revoked_at)}` : badge(t, 'keyStatus_', 'active')}</td>
      <td>
        ${
          mayRevoke
            ? this.revoking === key.api_key_id
              ? html`<div class="confirm" role="group" aria-labelledby=${`revoke-${key.api_key_id}`}>
                <p id=${`revoke-${key.api_key_id}`}>${t('revokeConfirm', { name: key.name })}</p>
                <div class="actions">
                  <button type="button" class="danger small" ?disabled=${this.busy} @click=${() => void this.#revoke(key)}>
                    ${t('confirm')}
                  </button>
                  <button type="button" class="secondary small" @click=${() => (this.revoking = null)}>${t('cancel')}</button>
                </div>
              </div>`
              : html`<button type="button" class="secondary small" data-write aria-label=${`${t('revoke')}: ${key.name}`}
                @click=${() => this.#askRevoke(key)}>${t('revoke')}</button>`
            : nothing
        }
      </td>
    </tr>`;
  }

  override render() {
    const t = this.t;
    const keys = this.#keys.value;
    return html`${this.heading(t('navApiKeys'))} ${this.renderTask(this.#keys)}
      ${this.created ? secretOnce(t, this.created.name, this.created.secret, t('apiKeyCreated')) : nothing}
      ${keys && keys.length === 0 ? html`<p>${t('noApiKeys')}</p>` : nothing}
      ${
        keys && keys.length > 0
          ? html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('colName')}</th>
                  <th scope="col">${t('environment')}</th>
                  <th scope="col">${t('colKey')}</th>
                  <th scope="col">${t('createdAt')}</th>
                  <th scope="col">${t('colLastUsed')}</th>
                  <th scope="col">${t('status')}</th>
                  <th scope="col">${t('actions')}</th>
                </tr>
              </thead>
              <tbody>
                ${keys.map((key) => this.#renderKey(key))}
              </tbody>
            </table>
          </div>`
          : nothing
      }
      <section aria-labelledby="create">
        <h2 id="create">${t('apiKeyCreateTitle')}</h2>
        <form @submit=${this.#create}>
          <div class="form-grid">
            <div class="field">
              <label for="name">${t('apiKeyName')}</label>
              <input id="name" name="name" required maxlength="100" />
            </div>
            <div class="field">
              <label for="environment">${t('environment')}</label>
              <select id="environment" name="environment" aria-describedby=${this.#mayCreateProduction ? nothing : 'prod-hint'}>
                ${this.#creatableEnvironments.map(
                  (env) => html`<option value=${env} selected>
                    ${t(env === 'sandbox' ? 'env_sandbox' : 'env_production')}
                  </option>`,
                )}
              </select>
              ${this.#mayCreateProduction ? nothing : html`<p id="prod-hint" class="muted">${t('apiKeyProductionAdminOnly')}</p>`}
            </div>
          </div>
          ${this.renderError(this.formError)}
          <div class="actions"><button type="submit" data-write ?disabled=${this.busy || this.#creatableEnvironments.length === 0}>${t('apiKeyCreate')}</button></div>
        </form>
      </section>`;
  }
}

if (!customElements.get('idv-api-keys-screen')) customElements.define('idv-api-keys-screen', ApiKeysScreen);
