import { html, nothing, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { codeLabel, type Translate } from '../i18n/localize.ts';
import { ZONE_DETAIL_KEYS, zoneFacts } from './check-zone.ts';
import { badge } from './widgets.ts';
import { numberFormat } from './format.ts';

type Check = Schemas['SessionResult']['checks'][number];

/** A detail value as text: numbers rounded for reading, lists joined, flags as yes/no. */
function detailText(t: Translate, locale: string, value: unknown): string {
  if (typeof value === 'number') return numberFormat(locale, { maximumFractionDigits: 3 }).format(value);
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (Array.isArray(value)) return value.map((item) => detailText(t, locale, item)).join(', ');
  if (value === null || value === undefined) return t('none');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Reason codes as their labels, each with the code beside it for searching the docs. */
export function reasonList(t: Translate, codes: readonly string[]): unknown {
  if (codes.length === 0) return t('none');
  return html`<ul class="plain">
    ${codes.map((code) => html`<li>${codeLabel(t, 'reason_', code)} <code>${code}</code></li>`)}
  </ul>`;
}

/** A check's details: its zone first (badge, reason, score against the boundaries), then the rest by name. */
function detailsList(t: Translate, locale: string, details: Readonly<Record<string, unknown>>): unknown {
  const zoned = typeof details.zone === 'string';
  const rest = Object.entries(details).filter(([name]) => !(zoned && ZONE_DETAIL_KEYS.has(name)));
  return html`<dl class="facts">
    ${zoneFacts(t, locale, details)}
    ${rest.map(
      ([name, value]) => html`<dt><code>${name}</code></dt>
        <dd>${detailText(t, locale, value)}</dd>`,
    )}
  </dl>`;
}

/**
 * The automated checks of a result (API.md §5): type, status, reason codes and the measured details
 * (scores, counts, flags and method names: the API never puts personal values there). A check decided
 * in zones (face match, liveness) shows its zone, the reason and the score against the boundaries first.
 *
 * @example
 *   html`${checksTable(t, 'en', result.checks)}`
 */
export function checksTable(
  t: Translate,
  locale: string,
  checks: readonly Check[],
  caption?: string,
): TemplateResult {
  if (checks.length === 0) return html`<p>${t('noChecks')}</p>`;
  // The table may scroll sideways (beside the images, in a narrow window, with a wider font): it is always
  // focusable and named, so keyboard users can scroll it; a group when uncaptioned, so it does not repeat
  // the landmark of the section it is in. In a narrow box (console-styles.ts, `.checks-table`) each row
  // stacks its cells instead of squeezing four columns: the explicit roles keep it a table to assistive
  // technology once its parts are laid out as blocks.
  return html`<div class="table-wrap checks-table" role=${caption ? 'region' : 'group'} tabindex="0"
    aria-label=${caption ?? t('sectionChecks')}>
    <table role="table">
      ${caption ? html`<caption>${caption}</caption>` : nothing}
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">${t('sectionChecks')}</th>
          <th scope="col" role="columnheader">${t('status')}</th>
          <th scope="col" role="columnheader">${t('reasonCodes')}</th>
          <th scope="col" role="columnheader">${t('details')}</th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        ${checks.map(
          (check) => html`<tr role="row">
            <th scope="row" role="rowheader">${codeLabel(t, 'check_', check.type)}</th>
            <td role="cell" data-label=${t('status')}>${badge(t, 'checkStatus_', check.status)}</td>
            <td role="cell" data-label=${t('reasonCodes')}>${reasonList(t, check.reason_codes)}</td>
            <td role="cell" data-label=${t('details')}>
              ${
                check.details && Object.keys(check.details).length > 0
                  ? detailsList(t, locale, check.details)
                  : t('none')
              }
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
