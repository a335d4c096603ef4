import { html, nothing, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { REASON_CODES } from '../api/lists.ts';
import { codeLabel, type Translate } from '../i18n/localize.ts';
import { numberFormat } from './format.ts';

type ReviewQueueItem = Schemas['ReviewQueueItem'];

/** The queue filters this screen keeps in its URL (`?q=&reason=&claim=`). */
export const QUEUE_FILTERS = ['q', 'reason', 'claim'] as const;
const CLAIM_FILTERS = ['mine', 'unclaimed', 'others'] as const;

/** Minutes as a short duration in the console's language: "3 h 10 min", "2 d 4 h". */
export function formatMinutes(locale: string, minutes: number): string {
  const unit = (value: number, name: 'day' | 'hour' | 'minute') =>
    numberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return rest > 0 ? `${unit(hours, 'hour')} ${unit(rest, 'minute')}` : unit(hours, 'hour');
  return unit(rest, 'minute');
}

/** The waiting time against the tenant's target, in words and colour: never the colour alone. */
export function waitingBadge(t: Translate, locale: string, item: ReviewQueueItem): TemplateResult {
  return html`<span class="waiting">
    ${t('waitingAgainstTarget', {
      waited: formatMinutes(locale, item.waiting_minutes),
      target: formatMinutes(locale, item.target_minutes),
    })}
    <span class=${`badge ${item.over_target ? 'tone-bad' : 'tone-good'}`}>${
      item.over_target ? t('overTarget') : t('withinTarget')
    }</span>
  </span>`;
}

/** Who holds a queued session, in words. */
export function claimLabel(t: Translate, item: ReviewQueueItem, who: (userId: string) => string): string {
  if (!item.claim) return t('queueUnclaimed');
  const holder = who(item.claim.reviewer_id);
  return item.claim.expires_at === null
    ? t('queueAssignedTo', { who: holder })
    : t('queueClaimedBy', { who: holder });
}

/**
 * The queue's search and filters: a session id, an external reference or a name; a reason code; who
 * holds it. A GET form: its values become the page's URL, which the screen loads from. `onExport`, when
 * given, downloads the queue's sessions of these filters as CSV.
 *
 * @example
 *   html`${queueFilters(t, this.query, (form) => this.navigate(consolePath(['reviews'], formQuery(form))))}`
 */
export function queueFilters(
  t: Translate,
  query: URLSearchParams,
  onSubmit: (form: HTMLFormElement) => void,
  resetHref: string,
  onExport: (() => void) | null,
): TemplateResult {
  const reason = query.get('reason') ?? '';
  const claim = query.get('claim') ?? '';
  return html`<form class="queue-filters" role="search" aria-label=${t('queueFiltersLegend')}
    @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      onSubmit(event.currentTarget as HTMLFormElement);
    }}>
    <fieldset>
      <legend>${t('queueFiltersLegend')}</legend>
      <div class="filters">
        <div class="field">
          <label for="q-search">${t('filterSearch')}</label>
          <input id="q-search" name="q" type="search" maxlength="200" .value=${query.get('q') ?? ''} />
        </div>
        <div class="field">
          <label for="q-reason">${t('filterReason')}</label>
          <select id="q-reason" name="reason">
            <option value="">${t('any')}</option>
            ${REASON_CODES.map(
              (code) =>
                html`<option value=${code} ?selected=${code === reason}>${codeLabel(t, 'reason_', code)}</option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="q-claim">${t('filterClaim')}</label>
          <select id="q-claim" name="claim">
            <option value="">${t('any')}</option>
            ${CLAIM_FILTERS.map(
              (value) =>
                html`<option value=${value} ?selected=${value === claim}>${codeLabel(t, 'claimFilter_', value)}</option>`,
            )}
          </select>
        </div>
        <div class="actions">
          <button type="submit">${t('applyFilters')}</button>
          ${
            onExport
              ? html`<button type="button" class="secondary" id="queue-export" @click=${onExport}>${t('exportCsv')}</button>`
              : nothing
          }
          ${
            QUEUE_FILTERS.some((name) => query.get(name))
              ? html`<a class="button secondary" href=${resetHref}>${t('resetFilters')}</a>`
              : nothing
          }
        </div>
      </div>
    </fieldset>
  </form>`;
}
