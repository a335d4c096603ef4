import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import type { ResponseOf, Schemas } from '../api/console-api.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { webhookFields, webhookFormFields } from '../ui/webhook-form.ts';
import { actionKey, badge, secretOnce } from '../ui/widgets.ts';

type WebhookWithSecret = ResponseOf<'/v1/webhooks', 'post'>;

/**
 * `/console/webhooks`: the environment's endpoints, and (with `webhooks:write`) a form to add one. The
 * signing secret is in the create response only: it is shown once, with a copy button.
 */
export class WebhooksScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    created: { state: true },
    busy: { state: true },
    formError: { state: true },
  };

  declare created: WebhookWithSecret | null;
  declare busy: boolean;
  declare formError: unknown;

  constructor() {
    super();
    this.created = null;
    this.busy = false;
    this.formError = null;
  }

  /** The environment's endpoints, again after one is added. */
  readonly #list = new Task(this, {
    args: () => [this.ctx.environment] as const,
    task: (_, { signal }) => this.api.get('/v1/webhooks', { signal, query: { limit: 100 } }),
  });

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = webhookFields(form);
    if (fields.events.length === 0) {
      this.formError = new Error(this.t('webhookEventsRequired'));
      return;
    }
    this.busy = true;
    this.formError = null;
    try {
      this.created = await this.api.post('/v1/webhooks', {
        body: {
          url: fields.url,
          events: fields.events,
          ...(fields.description ? { description: fields.description } : {}),
        },
        idempotencyKey: actionKey(),
      });
      form.reset();
      await this.#list.run();
      void this.focusAfterRender('idv-copy-field');
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  #renderList(list: Schemas['WebhookList']) {
    const t = this.t;
    if (list.data.length === 0) return html`<p>${t('noWebhooks')}</p>`;
    return html`<div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">${t('colUrl')}</th>
            <th scope="col">${t('status')}</th>
            <th scope="col">${t('colEvents')}</th>
            <th scope="col">${t('webhookDescription')}</th>
          </tr>
        </thead>
        <tbody>
          ${list.data.map(
            (webhook) => html`<tr>
              <th scope="row"><a href=${consolePath(['webhooks', webhook.webhook_id])}>${webhook.url}</a></th>
              <td>${badge(t, 'webhookStatus_', webhook.status)}</td>
              <td>${webhook.events.map((kind) => html`<code>${kind}</code> `)}</td>
              <td>${webhook.description ?? t('none')}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    const t = this.t;
    return html`${this.heading(t('navWebhooks'))} ${this.renderTask(this.#list)}
      ${this.created ? secretOnce(t, t('webhookSecretTitle'), this.created.secret, t('webhookCreated')) : nothing}
      ${this.#list.value ? this.#renderList(this.#list.value) : nothing}
      ${
        this.can('webhooks:write')
          ? html`<section aria-labelledby="create">
            <h2 id="create">${t('webhookCreateTitle')}</h2>
            <form @submit=${this.#create}>
              ${webhookFormFields(t, 'new')} ${this.renderError(this.formError)}
              <div class="actions">
                <button type="submit" data-write ?disabled=${this.busy}>${t('webhookCreate')}</button>
              </div>
            </form>
          </section>`
          : nothing
      }`;
  }
}

if (!customElements.get('idv-webhooks-screen')) customElements.define('idv-webhooks-screen', WebhooksScreen);
