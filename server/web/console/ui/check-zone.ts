import { html, nothing, type TemplateResult } from 'lit';
import { codeLabel, type Translate } from '../i18n/localize.ts';
import { numberFormat } from './format.ts';

/**
 * The details a check decides in zones with (API.md §5): `face_match` (match / uncertain / mismatch) and
 * `liveness` (live / not live / uncertain). Read here and shown first; older sessions have none of them.
 */
export const ZONE_DETAIL_KEYS: ReadonlySet<string> = new Set([
  'zone',
  'zone_reason',
  'thresholds',
  'match_threshold',
  'mismatch_threshold',
]);

/** How a zone reads at a glance; the word is always shown with it, never the colour alone. */
const ZONE_TONES: Record<string, 'good' | 'bad' | 'wait'> = {
  match: 'good',
  live: 'good',
  uncertain: 'wait',
  mismatch: 'bad',
  not_live: 'bad',
};

interface ZoneNumbers {
  score: number;
  match: number;
  mismatch: number;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The score and the two zone boundaries, from `thresholds: { match, mismatch }` or from the flat
 * `match_threshold` / `mismatch_threshold`; null unless all three are numbers.
 */
function zoneNumbers(details: Readonly<Record<string, unknown>>): ZoneNumbers | null {
  const nested =
    typeof details.thresholds === 'object' && details.thresholds !== null
      ? (details.thresholds as Record<string, unknown>)
      : {};
  const score = finite(details.score);
  const match = finite(nested.match) ?? finite(details.match_threshold);
  const mismatch = finite(nested.mismatch) ?? finite(details.mismatch_threshold);
  return score === null || match === null || mismatch === null ? null : { score, match, mismatch };
}

/**
 * A check's zone as the first rows of its details list: the zone as a badge with its name, the server's
 * reason sentence, and the score against the two boundaries. Nothing when the check has no zone.
 *
 * @example
 *   html`<dl class="facts">${zoneFacts(t, 'en', check.details)}…</dl>`
 */
export function zoneFacts(
  t: Translate,
  locale: string,
  details: Readonly<Record<string, unknown>>,
): TemplateResult | typeof nothing {
  const zone = typeof details.zone === 'string' && details.zone !== '' ? details.zone : null;
  if (zone === null) return nothing;
  const reason = typeof details.zone_reason === 'string' ? details.zone_reason.trim() : '';
  const numbers = zoneNumbers(details);
  const format = numberFormat(locale, { maximumFractionDigits: 4 });
  return html`<dt>${t('zone')}</dt>
    <dd><span class=${`badge tone-${ZONE_TONES[zone] ?? 'neutral'}`}>${codeLabel(t, 'zone_', zone)}</span></dd>
    ${
      reason
        ? // The API writes this sentence in English, whatever the console's language.
          html`<dt>${t('zoneReason')}</dt><dd lang="en" dir="auto">${reason}</dd>`
        : nothing
    }
    ${
      numbers
        ? html`<dt>${t('zoneScore')}</dt>
          <dd>${t('zoneScoreValue', {
            score: format.format(numbers.score),
            match: format.format(numbers.match),
            mismatch: format.format(numbers.mismatch),
          })}</dd>`
        : nothing
    }`;
}
