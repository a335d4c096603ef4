import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { FLOWS, TIERS } from '../../../domain/session-steps.ts';
import { REASON_CODES, SESSION_STATUSES } from '../api/lists.ts';
import type { MessageKey } from '../i18n/en.ts';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { downloadBlob } from '../ui/download.ts';
import { dayBoundary } from '../ui/format.ts';
import { badge, formQuery, type PageCursor, pageCursors, pager } from '../ui/widgets.ts';

/** The filters this page keeps in its URL (shareable, and Back restores them). */
const FILTERS = ['q', 'status', 'reason', 'flow', 'tier', 'country', 'reference', 'from', 'to'] as const;

/**
 * `/console/sessions`: every session of the environment, newest first, searched (session id, external
 * reference or name) and filtered by status, reason code, flow, tier, country, external reference and
 * creation date, paged with cursors (`GET /v1/sessions`); the same filters export as CSV
 * (`GET /v1/exports/sessions`, audited by the server).
 */
export class SessionsScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    exporting: { state: true },
    exportError: { state: true },
  };

  declare exporting: boolean;
  declare exportError: unknown;

  constructor() {
    super();
    this.exporting = false;
    this.exportError = null;
  }

  /** The API's filters from the page's URL: what the list shows is what the export writes. */
  #filters(q = this.query) {
    return {
      q: q.get('q')?.trim(),
      status: q.get('status'),
      reason_code: q.get('reason'),
      flow: q.get('flow'),
      tier: q.get('tier'),
      country: q.get('country')?.toUpperCase(),
      external_user_reference: q.get('reference'),
      created_gte: dayBoundary(q.get('from') ?? '', false),
      created_lte: dayBoundary(q.get('to') ?? '', true),
    };
  }

  /** Every session of the current filters as CSV, downloaded from a `blob:` URL (the token never leaves). */
  async #export(): Promise<void> {
    this.exporting = true;
    this.exportError = null;
    try {
      const csv = await this.api.blob(
        `/v1/exports/sessions?${new URLSearchParams(
          Object.entries(this.#filters()).filter((entry): entry is [string, string] => Boolean(entry[1])),
        )}`,
      );
      const day = new Date().toISOString().slice(0, 10);
      downloadBlob(csv, `sessions-${this.ctx.environment}-${day}.csv`);
    } catch (error) {
      this.exportError = error;
    } finally {
      this.exporting = false;
    }
  }

  /** The page of sessions the URL's filters and cursor ask for; a new one aborts the one still loading. */
  readonly #list = new Task(this, {
    args: () => [this.ctx.environment, this.query.toString()] as const,
    task: ([, query], { signal }) => {
      const q = new URLSearchParams(query);
      return this.api.get('/v1/sessions', {
        signal,
        query: {
          ...this.#filters(q),
          starting_after: q.get('starting_after'),
          ending_before: q.get('ending_before'),
          limit: 20,
        },
      });
    },
  });

  #filter(event: SubmitEvent): void {
    event.preventDefault();
    this.navigate(consolePath(['sessions'], formQuery(event.currentTarget as HTMLFormElement)));
  }

  #page(cursor: PageCursor): void {
    const query: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = this.query.get(name);
      if (value) query[name] = value;
    }
    this.navigate(consolePath(['sessions'], { ...query, ...cursor }));
  }

  #select(name: string, label: MessageKey, values: readonly string[], prefix: string) {
    const current = this.query.get(name) ?? '';
    return html`<div class="field">
      <label for=${`f-${name}`}>${this.t(label)}</label>
      <select id=${`f-${name}`} name=${name}>
        <option value="">${this.t('any')}</option>
        ${values.map(
          (value) =>
            html`<option value=${value} ?selected=${value === current}>${prefix ? codeLabel(this.t, prefix, value) : value}</option>`,
        )}
      </select>
    </div>`;
  }

  #input(
    name: string,
    label: MessageKey,
    type = 'text',
    extra: { maxlength?: number; pattern?: string } = {},
  ) {
    return html`<div class="field">
      <label for=${`f-${name}`}>${this.t(label)}</label>
      <input id=${`f-${name}`} name=${name} type=${type} .value=${this.query.get(name) ?? ''}
        maxlength=${extra.maxlength ?? nothing} pattern=${extra.pattern ?? nothing} />
    </div>`;
  }

  #renderFilters() {
    const t = this.t;
    return html`<form @submit=${this.#filter} role="search" aria-label=${t('filtersLegend')}>
      <fieldset>
        <legend>${t('filtersLegend')}</legend>
        <div class="filters">
          ${this.#input('q', 'filterSearch', 'search', { maxlength: 200 })}
          ${this.#select('status', 'filterStatus', SESSION_STATUSES, 'status_')}
          ${this.#select('reason', 'filterReason', REASON_CODES, 'reason_')}
          ${this.#select('flow', 'filterFlow', FLOWS, 'flow_')} ${this.#select('tier', 'filterTier', TIERS, '')}
          ${this.#input('country', 'filterCountry', 'text', { maxlength: 3, pattern: '[A-Za-z]{3}' })}
          ${this.#input('reference', 'filterReference', 'text', { maxlength: 255 })}
          ${this.#input('from', 'filterFrom', 'date')} ${this.#input('to', 'filterTo', 'date')}
          <div class="actions">
            <button type="submit">${t('applyFilters')}</button>
            <a class="button secondary" href=${consolePath(['sessions'])}>${t('resetFilters')}</a>
            <button type="button" class="secondary" id="export" ?disabled=${this.exporting}
              @click=${() => void this.#export()}>${t('exportCsv')}</button>
          </div>
        </div>
      </fieldset>
    </form>`;
  }

  #renderTable(list: Schemas['SessionList']) {
    const t = this.t;
    if (list.data.length === 0) return html`<p>${t('noResults')}</p>`;
    return html`<div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${t('colSession')}</th>
              <th scope="col">${t('status')}</th>
              <th scope="col">${t('colFlowTier')}</th>
              <th scope="col">${t('colCountry')}</th>
              <th scope="col">${t('colReference')}</th>
              <th scope="col">${t('createdAt')}</th>
            </tr>
          </thead>
          <tbody>
            ${list.data.map(
              (session) => html`<tr>
                <th scope="row"><a class="mono" href=${consolePath(['sessions', session.session_id])}>${session.session_id}</a></th>
                <td>${badge(t, 'status_', session.status)}</td>
                <td>${codeLabel(t, 'flow_', session.flow)} / ${session.tier}</td>
                <td>${session.country}</td>
                <td>${session.external_user_reference ?? t('none')}</td>
                <td>${this.date(session.created_at)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${pager(
        t,
        pageCursors(list, this.query, (s) => s.session_id),
        (cursor) => this.#page(cursor),
      )}`;
  }

  override render() {
    return html`${this.heading(this.t('navSessions'))} ${this.#renderFilters()}
    <div role="status">${this.exporting ? html`<p class="muted">${this.t('exporting')}</p>` : nothing}</div>
    ${this.renderError(this.exportError)} ${this.renderTask(this.#list)}
    ${this.#list.value ? this.#renderTable(this.#list.value) : nothing}`;
  }
}

if (!customElements.get('idv-sessions-screen')) customElements.define('idv-sessions-screen', SessionsScreen);
