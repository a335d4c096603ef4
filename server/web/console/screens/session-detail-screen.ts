import { initialState, Task, TaskStatus } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/console-path.ts';
import { checksTable } from '../ui/checks-view.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { badge } from '../ui/widgets.ts';

type ApiEvent = Schemas['Event'];
type Delivery = Schemas['WebhookDelivery'];
type Session = Schemas['Session'];
type SessionResult = Schemas['SessionResult'];
type Webhook = Schemas['Webhook'];

/** Sessions the tenant can still cancel (API.md §4). */
const CANCELLABLE = new Set(['created', 'collecting']);

interface DeliveryRow {
  delivery: Delivery;
  webhook: Webhook;
}

/**
 * `/console/sessions/:id`: one session: its facts and steps, the result's checks (with details and reason
 * codes), the timeline of its events, and the webhook deliveries those events caused. Events and
 * deliveries need `webhooks:read`; a role without it sees the rest.
 */
export class SessionDetailScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    session: { state: true },
    result: { state: true },
    confirming: { state: true },
    actionError: { state: true },
    message: { state: true },
  };

  declare session: Session | null;
  declare result: SessionResult | null;
  declare confirming: boolean;
  declare actionError: unknown;
  declare message: string;

  constructor() {
    super();
    this.session = null;
    this.result = null;
    this.confirming = false;
    this.actionError = null;
    this.message = '';
  }

  get #id(): string {
    return this.params['id'] ?? '';
  }

  /**
   * The session and its result. They live in `session` and `result` once loaded (cancelling replaces the
   * session with the server's answer), shown only when this task is complete.
   */
  readonly #detail = new Task(this, {
    args: () => [this.ctx.environment, this.#id] as const,
    task: ([, id], { signal }) =>
      Promise.all([
        this.api.get('/v1/sessions/{id}', { params: { id }, signal }),
        this.api.get('/v1/sessions/{id}/result', { params: { id }, signal }),
      ]),
    onComplete: ([session, result]) => {
      this.session = session;
      this.result = result;
    },
  });

  /** The session's events and their deliveries, for a role with `webhooks:read` (no run without it). */
  readonly #activity = new Task(this, {
    args: () => [this.ctx.environment, this.#id, this.can('webhooks:read')] as const,
    task: ([, id, mayRead], { signal }) => (mayRead ? this.#loadActivity(id, signal) : initialState),
  });

  /** The session's events (oldest first), and for each endpoint the deliveries of those events. */
  async #loadActivity(
    id: string,
    signal: AbortSignal,
  ): Promise<{ events: ApiEvent[]; deliveries: DeliveryRow[] }> {
    const [events, webhooks] = await Promise.all([
      this.api.get('/v1/events', { signal, query: { session_id: id, limit: 100 } }),
      this.api.get('/v1/webhooks', { signal, query: { limit: 100 } }),
    ]);
    const lookups = webhooks.data.flatMap((webhook) =>
      events.data.map(async (event) => {
        const page = await this.api.get('/v1/webhooks/{id}/deliveries', {
          params: { id: webhook.webhook_id },
          signal,
          query: { event_id: event.event_id, limit: 100 },
        });
        return page.data.map((delivery) => ({ delivery, webhook }));
      }),
    );
    const rows = (await Promise.all(lookups)).flat();
    rows.sort((a, b) => a.delivery.created_at.localeCompare(b.delivery.created_at));
    return { events: [...events.data].reverse(), deliveries: rows };
  }

  #askCancel(): void {
    this.confirming = true;
    void this.focusAfterRender('.confirm button');
  }

  async #cancel(): Promise<void> {
    this.actionError = null;
    try {
      this.session = await this.api.delete('/v1/sessions/{id}', { params: { id: this.#id } });
      this.confirming = false;
      this.message = this.t('sessionCancelled');
    } catch (error) {
      this.actionError = error;
    }
  }

  #renderOverview(session: Session, result: SessionResult | null) {
    const t = this.t;
    const fact = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value}</dd>`;
    return html`<section aria-labelledby="overview">
      <h2 id="overview">${t('sectionOverview')}</h2>
      <dl class="facts">
        ${fact(t('status'), badge(t, 'status_', session.status))}
        ${fact(t('environment'), t(session.environment === 'sandbox' ? 'env_sandbox' : 'env_production'))}
        ${fact(t('colFlowTier'), `${codeLabel(t, 'flow_', session.flow)} / ${session.tier}`)}
        ${fact(t('colCountry'), session.country)}
        ${fact(t('colReference'), session.external_user_reference ?? t('none'))}
        ${fact(t('createdAt'), this.date(session.created_at))} ${fact(t('submittedAt'), this.date(session.submitted_at))}
        ${fact(t('decidedAt'), this.date(session.decided_at))}
        ${result?.decided_by ? fact(t('decidedBy'), codeLabel(t, 'decidedBy_', result.decided_by)) : nothing}
        ${fact(t('expiresAt'), this.date(session.expires_at))}
        ${
          session.identity_id
            ? fact(
                t('identity'),
                html`<a class="mono" href=${consolePath(['identities', session.identity_id])}>${session.identity_id}</a>`,
              )
            : nothing
        }
        ${
          session.last_error
            ? fact(t('lastError'), html`<code>${session.last_error.code}</code> ${session.last_error.reason}`)
            : nothing
        }
        ${
          Object.keys(session.metadata).length > 0
            ? fact(
                t('metadata'),
                html`<ul class="plain">
                ${Object.entries(session.metadata).map(([key, value]) => html`<li><code>${key}</code>: ${String(value)}</li>`)}
              </ul>`,
              )
            : nothing
        }
      </dl>
    </section>`;
  }

  #renderSteps(session: Session) {
    const t = this.t;
    return html`<section aria-labelledby="steps">
      <h2 id="steps">${t('sectionSteps')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${t('sectionSteps')}</th>
              <th scope="col">${t('status')}</th>
              <th scope="col">${t('colAttempts')}</th>
            </tr>
          </thead>
          <tbody>
            ${session.steps.map(
              (step) => html`<tr>
                <th scope="row">${codeLabel(t, 'step_', step.step)}</th>
                <td>${badge(t, 'stepStatus_', step.status)}</td>
                <td>${t('stepAttemptsLeft', { count: step.attempts_remaining })}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`;
  }

  #renderResult(result: SessionResult) {
    const t = this.t;
    return html`<section aria-labelledby="checks">
      <h2 id="checks">${t('sectionChecks')}</h2>
      ${checksTable(t, this.ctx.locale, result.checks)}
      ${
        result.reasons.length > 0
          ? html`<h3>${t('sectionReasons')}</h3>
            <ul>
              ${result.reasons.map((reason) => html`<li><code>${reason.code}</code>: ${reason.message}</li>`)}
            </ul>`
          : nothing
      }
    </section>`;
  }

  #renderTimeline(events: ApiEvent[]) {
    const t = this.t;
    return html`<section aria-labelledby="timeline">
      <h2 id="timeline">${t('sectionTimeline')}</h2>
      ${
        events.length === 0
          ? html`<p>${t('noEvents')}</p>`
          : html`<ol class="plain">
            ${events.map(
              (event) => html`<li><time datetime=${event.created_at}>${this.date(event.created_at)}</time> ·
                <code>${event.type}</code></li>`,
            )}
          </ol>`
      }
    </section>`;
  }

  #renderDeliveries(rows: DeliveryRow[]) {
    const t = this.t;
    return html`<section aria-labelledby="deliveries">
      <h2 id="deliveries">${t('sectionDeliveries')}</h2>
      ${
        rows.length === 0
          ? html`<p>${t('noDeliveries')}</p>`
          : html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('colEvent')}</th>
                  <th scope="col">${t('colUrl')}</th>
                  <th scope="col">${t('status')}</th>
                  <th scope="col">${t('colAttempts')}</th>
                  <th scope="col">${t('colLastResponse')}</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  ({ delivery, webhook }) => html`<tr>
                    <th scope="row"><code>${delivery.event_type}</code></th>
                    <td><a href=${consolePath(['webhooks', webhook.webhook_id])}>${webhook.url}</a></td>
                    <td>${badge(t, 'deliveryStatus_', delivery.status)}</td>
                    <td>${delivery.attempt_count}</td>
                    <td>${delivery.last_response_status ?? delivery.last_error_class ?? t('none')}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
      }
    </section>`;
  }

  #renderActions(session: Session) {
    const t = this.t;
    const review =
      session.status === 'review_required' && this.can('sessions:review')
        ? // Searched for: the queue then holds this session, however far down the oldest-first order it is.
          html`<a class="button" href=${consolePath(['reviews'], { q: session.session_id })}>${t('reviewThisSession')}</a>`
        : nothing;
    // Every opening of its evidence and personal data, and every claim and decision, is audited (issue 25).
    const accessLog = this.can('audit:read')
      ? html`<a class="button secondary" href=${consolePath(['audit'], { target_type: 'session', target: session.session_id })}>${t('sessionAccessLog')}</a>`
      : nothing;
    const cancel =
      CANCELLABLE.has(session.status) && this.can('sessions:cancel')
        ? this.confirming
          ? html`<div class="confirm" role="group" aria-labelledby="cancel-question">
              <p id="cancel-question">${t('cancelSessionConfirm')}</p>
              <div class="actions">
                <button type="button" class="danger" @click=${() => void this.#cancel()}>${t('confirm')}</button>
                <button type="button" class="secondary" @click=${() => (this.confirming = false)}>${t('cancel')}</button>
              </div>
            </div>`
          : html`<button type="button" class="secondary" data-write @click=${() => this.#askCancel()}>
              ${t('cancelSession')}
            </button>`
        : nothing;
    if (review === nothing && cancel === nothing && accessLog === nothing) return nothing;
    return html`<div class="actions">${review} ${accessLog} ${cancel}</div>`;
  }

  override render() {
    const { session, result } = this;
    const detail = this.#detail;
    return html`${this.heading(this.t('sessionTitle'), html`<code>${this.#id}</code>`)}
      ${this.message ? html`<p class="notice" role="status">${this.message}</p>` : nothing}
      ${this.renderError(this.actionError)}
      ${this.renderTask(detail.status === TaskStatus.COMPLETE ? this.#activity : detail)}
      ${
        session && detail.status === TaskStatus.COMPLETE
          ? html`${this.#renderActions(session)} ${this.#renderOverview(session, result)} ${this.#renderSteps(session)}
          ${result ? this.#renderResult(result) : nothing}
          ${this.#activity.render({
            complete: ({ events, deliveries }) =>
              html`${this.#renderTimeline(events)} ${this.#renderDeliveries(deliveries)}`,
          })}`
          : nothing
      }`;
  }
}

if (!customElements.get('idv-session-detail-screen')) {
  customElements.define('idv-session-detail-screen', SessionDetailScreen);
}
