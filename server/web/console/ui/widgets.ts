import { html, nothing, type TemplateResult } from 'lit';
import { codeLabel, type Translate } from '../i18n/localize.ts';
import './copy-field.ts';

/** How a status reads at a glance: good, bad, waiting for someone, or neither. */
const TONES: Record<string, 'good' | 'bad' | 'wait' | 'neutral'> = {
  approved: 'good',
  verified: 'good',
  passed: 'good',
  succeeded: 'good',
  active: 'good',
  completed: 'good',
  rejected: 'bad',
  failed: 'bad',
  revoked: 'bad',
  disabled: 'bad',
  reverification_failed: 'bad',
  review_required: 'wait',
  inconclusive: 'wait',
  pending: 'wait',
  invited: 'wait',
  reverification_pending: 'wait',
  in_flight: 'wait',
};

/**
 * A status as a badge: its label under `prefix` (e.g. `status_`) and a tone; never colour alone, the word
 * is always there.
 */
export function badge(t: Translate, prefix: string, code: string): TemplateResult {
  return html`<span class=${`badge tone-${TONES[code] ?? 'neutral'}`}>${codeLabel(t, prefix, code)}</span>`;
}

/** A secret or link shown once, with the warning that goes with it and a copy button. */
export function secretOnce(t: Translate, label: string, value: string, intro: string): TemplateResult {
  return html`<div class="notice" role="status">
    <p><strong>${t('secretOnceTitle')}</strong> ${intro} ${t('secretOnceBody')}</p>
    <idv-copy-field .label=${label} .value=${value}></idv-copy-field>
  </div>`;
}

/** A link or value to copy, without the "only once" warning. */
export function copyField(label: string, value: string): TemplateResult {
  return html`<idv-copy-field .label=${label} .value=${value}></idv-copy-field>`;
}

export interface PageCursor {
  starting_after?: string;
  ending_before?: string;
}

/**
 * The cursors of the pages around the one shown (API.md §1, newest first): `older` continues after its
 * last item, `newer` before its first. A direction without more items is null.
 *
 * @example
 *   const { newer, older } = pageCursors(list, query, (s) => s.session_id);
 */
export function pageCursors<T>(
  list: { data: readonly T[]; has_more: boolean },
  query: URLSearchParams,
  idOf: (item: T) => string,
): { newer: PageCursor | null; older: PageCursor | null } {
  const first = list.data[0];
  const last = list.data.at(-1);
  const cameBackward = query.has('ending_before');
  const cameForward = query.has('starting_after');
  const hasOlder = cameBackward ? list.data.length > 0 : list.has_more;
  const hasNewer = cameBackward ? list.has_more : cameForward;
  return {
    older: hasOlder && last ? { starting_after: idOf(last) } : null,
    newer: hasNewer && first ? { ending_before: idOf(first) } : null,
  };
}

/** Newer / Older buttons; each calls `go` with the cursor of its page. */
export function pager(
  t: Translate,
  cursors: { newer: PageCursor | null; older: PageCursor | null },
  go: (cursor: PageCursor) => void,
): unknown {
  if (!cursors.newer && !cursors.older) return nothing;
  return html`<nav class="pager" aria-label=${t('pagination')}>
    <button type="button" class="secondary" ?disabled=${!cursors.newer}
      @click=${() => cursors.newer && go(cursors.newer)}>${t('newer')}</button>
    <button type="button" class="secondary" ?disabled=${!cursors.older}
      @click=${() => cursors.older && go(cursors.older)}>${t('older')}</button>
  </nav>`;
}

/** Query values of a form, without empty ones and without the cursors (a new filter starts at page one). */
export function formQuery(form: HTMLFormElement): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value.trim() !== '') query[name] = value.trim();
  }
  return query;
}

/** An `Idempotency-Key` for one user action (API.md §1): a retry of the same action replays its answer. */
export function actionKey(): string {
  return crypto.randomUUID();
}
