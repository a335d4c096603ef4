import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { webhookFields, webhookFormFields } from '../ui/webhook-form.ts';
import { actionKey, badge, type PageCursor, pageCursors, pager, secretOnce } from '../ui/widgets.ts';

type Delivery = Schemas['WebhookDelivery'];
type Webhook = Schemas['Webhook'];
type WebhookTestResult = Schemas['WebhookTestResult'];

/**
 * `/console/webhooks/:id`: one endpoint: edit, disable or enable, rotate the secret (the new one shown
 * once), send a test event, and the delivery log with every attempt and a manual retry.
 */
export class WebhookDetailScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    webhook: { state: true },
    deliveries: { state: true },
    secret: { state: true },
    testResult: { state: true },
    message: { state: true },
    actionError: { state: true },
    busy: { state: true },
    confirmingRotate: { state: true },
  };

  declare webhook: Webhook | null;
  declare deliveries: Schemas['WebhookDeliveryList'] | null;
  /** A new secret after a rotation, shown once. */
  declare secret: string | null;
  declare testResult: WebhookTestResult | null;
  declare message: string;
  declare actionError: unknown;
  declare busy: boolean;
  declare confirmingRotate: boolean;

  constructor() {
    super();
    this.webhook = null;
    this.deliveries = null;
    this.secret = null;
    this.testResult = null;
    this.message = '';
    this.actionError = null;
    this.busy = false;
    this.confirmingRotate = false;
  }

  /** The path parameters of this webhook's operations. */
  get #params(): { id: string } {
    return { id: this.params['id'] ?? '' };
  }

  /**
   * The webhook and the page of its deliveries the cursor asks for, again after a test or a retry (the
   * writes that change the webhook replace `webhook` with the server's answer).
   */
  readonly #detail = new Task(this, {
    args: () =>
      [
        this.ctx.environment,
        this.params['id'] ?? '',
        this.query.get('starting_after'),
        this.query.get('ending_before'),
      ] as const,
    task: ([, id, startingAfter, endingBefore], { signal }) =>
      Promise.all([
        this.api.get('/v1/webhooks/{id}', { params: { id }, signal }),
        this.api.get('/v1/webhooks/{id}/deliveries', {
          params: { id },
          signal,
          query: { limit: 20, starting_after: startingAfter, ending_before: endingBefore },
        }),
      ]),
    onComplete: ([webhook, deliveries]) => {
      this.webhook = webhook;
      this.deliveries = deliveries;
    },
  });

  /** Runs a write, shows its failure, and says what happened in the status line. */
  async #act(action: () => Promise<string>): Promise<void> {
    this.busy = true;
    this.actionError = null;
    this.message = '';
    try {
      this.message = await action();
    } catch (error) {
      this.actionError = error;
    } finally {
      this.busy = false;
    }
  }

  #save(event: SubmitEvent): void {
    event.preventDefault();
    const fields = webhookFields(event.currentTarget as HTMLFormElement);
    if (fields.events.length === 0) {
      this.actionError = new Error(this.t('webhookEventsRequired'));
      return;
    }
    void this.#act(async () => {
      this.webhook = await this.api.patch('/v1/webhooks/{id}', {
        params: this.#params,
        body: { url: fields.url, events: fields.events, description: fields.description || null },
      });
      return this.t('saved');
    });
  }

  #setStatus(status: 'active' | 'disabled'): void {
    void this.#act(async () => {
      this.webhook = await this.api.patch('/v1/webhooks/{id}', { params: this.#params, body: { status } });
      return this.t(status === 'active' ? 'webhookStatus_active' : 'webhookStatus_disabled');
    });
  }

  #askRotate(): void {
    this.confirmingRotate = true;
    void this.focusAfterRender('.confirm button');
  }

  #rotate(): void {
    this.confirmingRotate = false;
    void this.#act(async () => {
      const rotated = await this.api.post('/v1/webhooks/{id}/rotate-secret', {
        params: this.#params,
        idempotencyKey: actionKey(),
      });
      const { secret, ...webhook } = rotated;
      this.webhook = webhook;
      this.secret = secret;
      void this.focusAfterRender('idv-copy-field');
      return '';
    });
  }

  #test(): void {
    void this.#act(async () => {
      const result = await this.api.post('/v1/webhooks/{id}/test', { params: this.#params });
      this.testResult = result;
      await this.#detail.run();
      return result.status_class === null
        ? this.t('webhookTestNoAnswer')
        : this.t('webhookTestAnswered', { status: result.status_class });
    });
  }

  #retry(delivery: Delivery): void {
    void this.#act(async () => {
      await this.api.post('/v1/webhooks/{id}/deliveries/{delivery_id}/retry', {
        params: { ...this.#params, delivery_id: delivery.delivery_id },
        idempotencyKey: actionKey(),
      });
      await this.#detail.run();
      return this.t('retryQueued');
    });
  }

  #page(cursor: PageCursor): void {
    this.navigate(consolePath(['webhooks', this.params['id'] ?? ''], { ...cursor }));
  }

  #renderFacts(webhook: Webhook) {
    const t = this.t;
    return html`<dl class="facts">
      <dt>${t('colUrl')}</dt>
      <dd>${webhook.url}</dd>
      <dt>${t('status')}</dt>
      <dd>
        ${badge(t, 'webhookStatus_', webhook.status)}
        ${webhook.disabled_reason ? t('webhookDisabledReason', { reason: webhook.disabled_reason }) : nothing}
      </dd>
      <dt>${t('colEvents')}</dt>
      <dd>${webhook.events.map((kind) => html`<code>${kind}</code> `)}</dd>
      <dt>${t('webhookDescription')}</dt>
      <dd>${webhook.description ?? t('none')}</dd>
      <dt>${t('createdAt')}</dt>
      <dd>${this.date(webhook.created_at)}</dd>
    </dl>
    ${
      webhook.previous_secret_expires_at
        ? html`<p class="muted">${t('previousSecretUntil', { time: this.date(webhook.previous_secret_expires_at) })}</p>`
        : nothing
    }`;
  }

  #renderActions(webhook: Webhook) {
    const t = this.t;
    if (!this.can('webhooks:write')) return nothing;
    return html`<div class="actions">
        <button type="button" class="secondary" data-write ?disabled=${this.busy} @click=${() => this.#test()}>
          ${t('webhookSendTest')}
        </button>
        ${
          webhook.status === 'active'
            ? html`<button type="button" class="secondary" data-write ?disabled=${this.busy}
              @click=${() => this.#setStatus('disabled')}>${t('webhookDisable')}</button>`
            : html`<button type="button" class="secondary" data-write ?disabled=${this.busy}
              @click=${() => this.#setStatus('active')}>${t('webhookEnable')}</button>`
        }
        <button type="button" class="secondary" data-write ?disabled=${this.busy} @click=${() => this.#askRotate()}>
          ${t('webhookRotate')}
        </button>
      </div>
      ${
        this.confirmingRotate
          ? html`<div class="confirm" role="group" aria-labelledby="rotate-question">
            <p id="rotate-question">${t('webhookRotateConfirm')}</p>
            <div class="actions">
              <button type="button" class="danger" @click=${() => this.#rotate()}>${t('confirm')}</button>
              <button type="button" class="secondary" @click=${() => (this.confirmingRotate = false)}>${t('cancel')}</button>
            </div>
          </div>`
          : nothing
      }`;
  }

  #renderEdit(webhook: Webhook) {
    const t = this.t;
    if (!this.can('webhooks:write')) return nothing;
    return html`<details>
      <summary>${t('webhookEditTitle')}</summary>
      <form @submit=${this.#save}>
        ${webhookFormFields(t, 'edit', webhook)}
        <div class="actions"><button type="submit" data-write ?disabled=${this.busy}>${t('save')}</button></div>
      </form>
    </details>`;
  }

  #renderDeliveries(list: Schemas['WebhookDeliveryList']) {
    const t = this.t;
    const write = this.can('webhooks:write') && this.webhook?.status === 'active';
    return html`<section aria-labelledby="log">
      <h2 id="log">${t('deliveriesTitle')}</h2>
      ${
        list.data.length === 0
          ? html`<p>${t('noResults')}</p>`
          : html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('colEvent')}</th>
                  <th scope="col">${t('status')}</th>
                  <th scope="col">${t('colAttempts')}</th>
                  <th scope="col">${t('colLastResponse')}</th>
                  <th scope="col">${t('createdAt')}</th>
                  ${write ? html`<th scope="col">${t('actions')}</th>` : nothing}
                </tr>
              </thead>
              <tbody>
                ${list.data.map((delivery) => this.#renderDelivery(delivery, write))}
              </tbody>
            </table>
          </div>`
      }
      ${pager(
        t,
        pageCursors(list, this.query, (d) => d.delivery_id),
        (cursor) => this.#page(cursor),
      )}
    </section>`;
  }

  #renderDelivery(delivery: Delivery, write: boolean) {
    const t = this.t;
    return html`<tr>
      <th scope="row">
        <code>${delivery.event_type}</code><br /><span class="muted mono">${delivery.event_id}</span>
      </th>
      <td>
        ${badge(t, 'deliveryStatus_', delivery.status)}
        ${delivery.next_attempt_at ? html`<br /><span class="muted">${t('nextAttempt', { time: this.date(delivery.next_attempt_at) })}</span>` : nothing}
      </td>
      <td>
        <details>
          <summary>${delivery.attempt_count} · ${t('showAttempts')}</summary>
          <table>
            <caption class="visually-hidden">${t('attemptsOf', { id: delivery.delivery_id })}</caption>
            <thead>
              <tr>
                <th scope="col">${t('attemptNumber')}</th>
                <th scope="col">${t('status')}</th>
                <th scope="col">${t('colLastResponse')}</th>
                <th scope="col">${t('duration')}</th>
                <th scope="col">${t('startedAt')}</th>
              </tr>
            </thead>
            <tbody>
              ${delivery.attempts.map(
                (attempt) => html`<tr>
                  <th scope="row">${attempt.attempt}</th>
                  <td>${badge(t, 'attemptStatus_', attempt.status)}</td>
                  <td>${attempt.response_status ?? (attempt.error_class ? html`<code>${attempt.error_class}</code>` : t('none'))}</td>
                  <td>${attempt.duration_ms === null ? t('none') : `${attempt.duration_ms} ms`}</td>
                  <td>${this.date(attempt.started_at)}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </details>
      </td>
      <td>${delivery.last_response_status ?? (delivery.last_error_class ? html`<code>${delivery.last_error_class}</code>` : t('none'))}</td>
      <td>${this.date(delivery.created_at)}</td>
      ${
        write
          ? html`<td>
            <button type="button" class="secondary small" data-write ?disabled=${this.busy}
              aria-label=${`${t('retryDelivery')}: ${delivery.event_type} ${delivery.delivery_id}`}
              @click=${() => this.#retry(delivery)}>${t('retryDelivery')}</button>
          </td>`
          : nothing
      }
    </tr>`;
  }

  override render() {
    const t = this.t;
    const webhook = this.webhook;
    return html`${this.heading(t('webhookTitle'))} ${this.renderTask(this.#detail)}
      <div role="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.renderError(this.actionError)}
      ${this.secret ? secretOnce(t, t('webhookSecretTitle'), this.secret, t('webhookSecretRotated')) : nothing}
      ${
        webhook
          ? html`${this.#renderFacts(webhook)} ${this.#renderActions(webhook)} ${this.#renderEdit(webhook)}`
          : nothing
      }
      ${this.deliveries ? this.#renderDeliveries(this.deliveries) : nothing}`;
  }
}

if (!customElements.get('idv-webhook-detail-screen')) {
  customElements.define('idv-webhook-detail-screen', WebhookDetailScreen);
}
