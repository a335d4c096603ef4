import { Task } from '@lit/task';
import { html, nothing } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../features/audit/audit-actions.ts';
import { ENVIRONMENTS } from '../api/lists.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { dayBoundary } from '../ui/format.ts';
import { formQuery, type PageCursor, pageCursors, pager } from '../ui/widgets.ts';

type AuditEvent = Schemas['AuditEvent'];

const FILTERS = ['action', 'actor', 'target_type', 'target', 'env', 'from', 'to'] as const;

/** Where an audit target lives in the console, when it has a page. */
function targetHref(target: AuditEvent['target']): string | null {
  if (!target?.id) return null;
  if (target.type === 'session') return consolePath(['sessions', target.id]);
  if (target.type === 'webhook') return consolePath(['webhooks', target.id]);
  return null;
}

/**
 * `/console/audit` (`audit:read`): who did what in the tenant, newest first (`GET /v1/audit-events`),
 * filtered by action, actor, target and date, across both environments unless one is picked. The log
 * holds ids, codes and network prefixes only, never personal values.
 */
export class AuditScreen extends ConsoleScreen {
  /** Tenant-wide: the same whichever environment is chosen, so never marked as sandbox data. */
  protected override get environmentScoped(): boolean {
    return false;
  }

  /** The page of the log the URL's filters ask for. The log spans both environments: only its filters reload it. */
  readonly #list = new Task(this, {
    args: () => [this.query.toString()] as const,
    task: ([query], { signal }) => {
      const q = new URLSearchParams(query);
      return this.api.get('/v1/audit-events', {
        signal,
        query: {
          action: q.get('action'),
          actor_id: q.get('actor'),
          target_type: q.get('target_type'),
          target_id: q.get('target'),
          environment: q.get('env'),
          created_gte: dayBoundary(q.get('from') ?? '', false),
          created_lte: dayBoundary(q.get('to') ?? '', true),
          starting_after: q.get('starting_after'),
          ending_before: q.get('ending_before'),
          limit: 50,
        },
      });
    },
  });

  #filter(event: SubmitEvent): void {
    event.preventDefault();
    this.navigate(consolePath(['audit'], formQuery(event.currentTarget as HTMLFormElement)));
  }

  #page(cursor: PageCursor): void {
    const query: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = this.query.get(name);
      if (value) query[name] = value;
    }
    this.navigate(consolePath(['audit'], { ...query, ...cursor }));
  }

  #renderFilters() {
    const t = this.t;
    const q = this.query;
    return html`<form @submit=${this.#filter} role="search" aria-label=${t('filtersLegend')}>
      <fieldset>
        <legend>${t('filtersLegend')}</legend>
        <div class="filters">
          <div class="field">
            <label for="f-action">${t('filterAction')}</label>
            <select id="f-action" name="action">
              <option value="">${t('any')}</option>
              ${AUDIT_ACTIONS.map((action) => html`<option value=${action} ?selected=${q.get('action') === action}>${action}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="f-actor">${t('filterActor')}</label>
            <input id="f-actor" name="actor" maxlength="64" spellcheck="false" .value=${q.get('actor') ?? ''} />
          </div>
          <div class="field">
            <label for="f-target-type">${t('filterTargetType')}</label>
            <select id="f-target-type" name="target_type">
              <option value="">${t('any')}</option>
              ${AUDIT_TARGET_TYPES.map((type) => html`<option value=${type} ?selected=${q.get('target_type') === type}>${type}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="f-target">${t('filterTargetId')}</label>
            <input id="f-target" name="target" maxlength="64" spellcheck="false" .value=${q.get('target') ?? ''} />
          </div>
          <div class="field">
            <label for="f-env">${t('environment')}</label>
            <select id="f-env" name="env">
              <option value="">${t('bothEnvironments')}</option>
              ${ENVIRONMENTS.map(
                (env) =>
                  html`<option value=${env} ?selected=${q.get('env') === env}>${t(env === 'sandbox' ? 'env_sandbox' : 'env_production')}</option>`,
              )}
            </select>
          </div>
          <div class="field">
            <label for="f-from">${t('filterFrom')}</label>
            <input id="f-from" name="from" type="date" .value=${q.get('from') ?? ''} />
          </div>
          <div class="field">
            <label for="f-to">${t('filterTo')}</label>
            <input id="f-to" name="to" type="date" .value=${q.get('to') ?? ''} />
          </div>
          <div class="actions">
            <button type="submit">${t('applyFilters')}</button>
            <a class="button secondary" href=${consolePath(['audit'])}>${t('resetFilters')}</a>
          </div>
        </div>
      </fieldset>
    </form>`;
  }

  #renderEvent(event: AuditEvent) {
    const t = this.t;
    const href = targetHref(event.target);
    const details = Object.entries(event.details);
    return html`<tr>
      <th scope="row"><time datetime=${event.created_at}>${this.date(event.created_at)}</time></th>
      <td><code>${event.action}</code></td>
      <td>${event.actor.type} <code>${event.actor.id ?? t('none')}</code></td>
      <td>
        ${
          event.target
            ? html`${event.target.type}
              ${href ? html`<a class="mono" href=${href}>${event.target.id}</a>` : html`<code>${event.target.id ?? ''}</code>`}`
            : t('none')
        }
      </td>
      <td>
        ${
          event.environment
            ? t(event.environment === 'sandbox' ? 'env_sandbox' : 'env_production')
            : t('tenantWide')
        }
      </td>
      <td><code>${event.ip_prefix ?? t('none')}</code></td>
      <td>
        ${
          details.length === 0
            ? t('none')
            : html`<ul class="plain">
              ${details.map(([name, value]) => html`<li><code>${name}</code>: ${Array.isArray(value) ? value.join(', ') : String(value)}</li>`)}
            </ul>`
        }
        ${event.request_id ? html`<span class="muted mono">${event.request_id}</span>` : nothing}
      </td>
    </tr>`;
  }

  override render() {
    const t = this.t;
    const list = this.#list.value;
    return html`${this.heading(t('navAudit'))} ${this.#renderFilters()} ${this.renderTask(this.#list)}
      ${list && list.data.length === 0 ? html`<p>${t('noResults')}</p>` : nothing}
      ${
        list && list.data.length > 0
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">${t('colTime')}</th>
                    <th scope="col">${t('colAction')}</th>
                    <th scope="col">${t('colActor')}</th>
                    <th scope="col">${t('colTarget')}</th>
                    <th scope="col">${t('environment')}</th>
                    <th scope="col">${t('colNetwork')}</th>
                    <th scope="col">${t('details')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${list.data.map((event) => this.#renderEvent(event))}
                </tbody>
              </table>
            </div>
            ${pager(
              t,
              pageCursors(list, this.query, (e) => e.audit_event_id),
              (cursor) => this.#page(cursor),
            )}`
          : nothing
      }`;
  }
}

if (!customElements.get('idv-audit-screen')) customElements.define('idv-audit-screen', AuditScreen);
