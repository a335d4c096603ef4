import { Task } from '@lit/task';
import { html, nothing } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { SESSION_STATUSES } from '../api/lists.ts';
import { codeLabel } from '../i18n/localize.ts';
import { BASE, consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { formatAge, formatDuration, formatNumber, formatPercent } from '../ui/format.ts';
import { dailyChart } from './daily-chart.ts';
import { dashboardStyles } from './dashboard-screen-styles.ts';

type Stats = Schemas['Stats'];

const DAYS = 30;

/**
 * `/console/dashboard`: the last 30 days of one environment (`GET /v1/stats`): totals, approval rate,
 * median time to decision, sessions per day, and the review queue.
 */
export class DashboardScreen extends ConsoleScreen {
  static override styles = [...ConsoleScreen.styles, dashboardStyles];

  /** The environment's figures (none shown while another environment's load). */
  readonly #stats = new Task(this, {
    args: () => [this.ctx.environment] as const,
    task: (_, { signal }) => this.api.get('/v1/stats', { query: { days: DAYS }, signal }),
  });

  #renderCards(stats: Stats) {
    const t = this.t;
    const locale = this.ctx.locale;
    const queue = stats.review_queue;
    return html`<div class="cards">
      <section class="card" aria-labelledby="card-sessions">
        <h2 id="card-sessions">${t('cardSessions')}</h2>
        <p class="value">${formatNumber(locale, stats.sessions.total)}</p>
        <p class="muted">${t('statsWindow', { days: stats.days })}</p>
      </section>
      <section class="card" aria-labelledby="card-rate">
        <h2 id="card-rate">${t('cardApprovalRate')}</h2>
        <p class="value">${stats.approval_rate === null ? t('notApplicable') : formatPercent(locale, stats.approval_rate)}</p>
        <p class="muted">${t('cardApprovalRateHint')}</p>
      </section>
      <section class="card" aria-labelledby="card-median">
        <h2 id="card-median">${t('cardMedianDecision')}</h2>
        <p class="value">
          ${
            stats.median_seconds_to_decision === null
              ? t('notApplicable')
              : formatDuration(locale, stats.median_seconds_to_decision)
          }
        </p>
      </section>
      <section class="card" aria-labelledby="card-queue">
        <h2 id="card-queue">${t('cardQueue')}</h2>
        <p class="value">${formatNumber(locale, queue.length)}</p>
        <p class="muted">
          ${
            queue.oldest_since
              ? t('queueOldest', {
                  time: `${this.date(queue.oldest_since)} (${formatAge(locale, queue.oldest_since)})`,
                })
              : t('queueEmpty')
          }
        </p>
        ${
          queue.length > 0 && this.can('sessions:review')
            ? html`<p><a href=${`${BASE}/reviews`}>${t('openQueue')}</a></p>`
            : nothing
        }
      </section>
    </div>`;
  }

  #renderByStatus(stats: Stats) {
    const t = this.t;
    return html`<h2>${t('byStatusTitle')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${t('status')}</th>
              <th scope="col">${t('cardSessions')}</th>
            </tr>
          </thead>
          <tbody>
            ${SESSION_STATUSES.map(
              (status) => html`<tr>
                <th scope="row"><a href=${consolePath(['sessions'], { status })}>${codeLabel(t, 'status_', status)}</a></th>
                <td>${formatNumber(this.ctx.locale, stats.sessions.by_status[status] ?? 0)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
  }

  override render() {
    return html`${this.heading(this.t('navDashboard'))}
    ${this.#stats.render({
      pending: () => this.loadingNotice(),
      error: (error) => this.renderError(error),
      complete: (stats) =>
        html`${this.#renderCards(stats)} ${dailyChart(stats.per_day, this.t, this.ctx.locale)}
        ${this.#renderByStatus(stats)}`,
    })}`;
  }
}

if (!customElements.get('idv-dashboard-screen'))
  customElements.define('idv-dashboard-screen', DashboardScreen);
