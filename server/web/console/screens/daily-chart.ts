import { html, nothing, svg, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import type { Translate } from '../i18n/localize.ts';
import { formatDay, formatNumber } from '../ui/format.ts';

type DayCounts = Schemas['Stats']['per_day'][number];

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

/** The stacked series, bottom to top; `other` is what is still open or ended otherwise (expired, cancelled). */
const SERIES = [
  { key: 'approved', label: 'legendApproved', tone: 'good' },
  { key: 'rejected', label: 'legendRejected', tone: 'bad' },
  { key: 'review_required', label: 'legendReview', tone: 'wait' },
  { key: 'other', label: 'legendOther', tone: 'neutral' },
] as const;

type SeriesKey = (typeof SERIES)[number]['key'];

function countOf(day: DayCounts, key: SeriesKey): number {
  if (key === 'other') return Math.max(0, day.created - day.approved - day.rejected - day.review_required);
  return day[key];
}

/** A "nice" axis maximum: 1, 2 or 5 times a power of ten, at least the data's maximum. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const factor = [1, 2, 5, 10].find((f) => f * power >= max) ?? 10;
  return factor * power;
}

/**
 * Sessions per day as stacked SVG bars, drawn by hand (no chart library): approved, rejected, waiting for
 * review, and the rest of the day's sessions. The picture is `role="img"` with a summary in words; the
 * exact numbers are in a table right below it for screen readers and anyone who wants them.
 *
 * @example
 *   html`${dailyChart(stats.per_day, t, 'en')}`
 */
export function dailyChart(days: readonly DayCounts[], t: Translate, locale: string): TemplateResult {
  const totals = days.reduce(
    (sum, day) => ({
      created: sum.created + day.created,
      approved: sum.approved + day.approved,
      rejected: sum.rejected + day.rejected,
      review: sum.review + day.review_required,
    }),
    { created: 0, approved: 0, rejected: 0, review: 0 },
  );
  const max = Math.max(0, ...days.map((day) => day.created));
  const top = niceMax(max);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = days.length > 0 ? plotWidth / days.length : plotWidth;
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const ticks = [0, top / 2, top];
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  const summary = t('chartSummary', {
    days: days.length,
    total: formatNumber(locale, totals.created),
    approved: formatNumber(locale, totals.approved),
    rejected: formatNumber(locale, totals.rejected),
    review: formatNumber(locale, totals.review),
    max: formatNumber(locale, max),
  });

  const bars = days.map((day, index) => {
    let base = 0;
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    return SERIES.map(({ key, tone }) => {
      const value = countOf(day, key);
      if (value === 0) return nothing;
      const from = y(base);
      base += value;
      const to = y(base);
      return svg`<rect class=${`bar ${tone}`} x=${x.toFixed(1)} y=${to.toFixed(1)} width=${barWidth.toFixed(1)}
        height=${Math.max(0, from - to).toFixed(1)}></rect>`;
    });
  });

  return html`<figure class="chart">
    <figcaption id="chart-title">${t('chartTitle')}</figcaption>
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-summary" dir="ltr"
      preserveAspectRatio="xMidYMid meet">
      ${ticks.map(
        (
          tick,
        ) => svg`<line class="grid" x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(tick)} y2=${y(tick)}></line>
          <text class="axis" x=${PAD.left - 6} y=${y(tick) + 4} text-anchor="end">${formatNumber(locale, tick)}</text>`,
      )}
      ${bars}
      ${days.map((day, index) =>
        index % labelEvery === 0 || index === days.length - 1
          ? svg`<text class="axis" x=${PAD.left + index * slot + slot / 2} y=${HEIGHT - 8} text-anchor="middle">${formatDay(locale, day.date)}</text>`
          : nothing,
      )}
    </svg>
    <p id="chart-summary" class="muted">${summary}</p>
    <ul class="legend plain">
      ${SERIES.map(
        ({ label, tone }) =>
          html`<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect class=${`bar ${tone}`} width="10" height="10"></rect></svg>${t(label)}</li>`,
      )}
    </ul>
    <details>
      <summary>${t('chartTable')}</summary>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${t('date')}</th>
              <th scope="col">${t('legendCreated')}</th>
              <th scope="col">${t('legendApproved')}</th>
              <th scope="col">${t('legendRejected')}</th>
              <th scope="col">${t('legendReview')}</th>
            </tr>
          </thead>
          <tbody>
            ${days.map(
              (day) => html`<tr>
                <th scope="row">${formatDay(locale, day.date)}</th>
                <td>${formatNumber(locale, day.created)}</td>
                <td>${formatNumber(locale, day.approved)}</td>
                <td>${formatNumber(locale, day.rejected)}</td>
                <td>${formatNumber(locale, day.review_required)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
  </figure>`;
}
