import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import {
  type AuditEvent,
  type EvidenceUpload,
  type List,
  REASON_CODES,
  type Session,
  type SessionResult,
  type TenantUser,
} from '../api/console-types.ts';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/routes.ts';
import { checksTable } from '../ui/checks-view.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import '../ui/evidence-image.ts';
import { formatAge } from '../ui/format.ts';
import { actionKey, badge } from '../ui/widgets.ts';

/** Sessions read per page; the next page is read when the reviewer moves past the last one loaded. */
const PAGE = 100;

interface Current {
  session: Session;
  result: SessionResult;
  uploads: EvidenceUpload[];
}

interface Conflict {
  status: string;
  who: string;
  at: string | null;
}

/** Input types where letters are text; a checkbox or a radio button with focus still takes shortcuts. */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);

/** Whether a key press happened while typing (where letters are text, not shortcuts). */
function typing(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return (
    target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
  );
}

/**
 * `/console/reviews`: the sessions in `review_required`, oldest first. For the current one: the document
 * and selfie images (fetched with the console token as blobs), the automated checks beside them, and the
 * decision (`POST /v1/sessions/:id/review`) with reason codes and a note. A 409 means someone decided
 * first: the page says who. Keyboard: j / k next / previous, a approve, r reject.
 */
export class ReviewScreen extends ConsoleScreen {
  static override styles = [
    ...ConsoleScreen.styles,
    css`
      .workspace {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        gap: 1.25rem;
        align-items: start;
      }
      @media (max-width: 60rem) {
        .workspace {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .images {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
        gap: 1rem;
      }
      .queue-nav {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.75rem;
      }
      h2:focus {
        outline: none;
      }
      h2:focus-visible {
        outline: var(--idv-focus-ring);
        outline-offset: 4px;
      }
      kbd {
        font-family: ui-monospace, Menlo, Consolas, monospace;
        border: 1px solid var(--idv-color-border);
        border-block-end-width: 2px;
        border-radius: 0.25rem;
        padding: 0 0.375rem;
      }
      .shortcuts dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.25rem 0.75rem;
        margin: 0;
      }
      .shortcuts dd {
        margin: 0;
      }
      .queue-list button {
        inline-size: 100%;
        justify-content: flex-start;
        text-align: start;
        margin-block-end: 0.375rem;
      }
      .queue-list button[aria-current='true'] {
        background: var(--idv-color-primary);
        color: var(--idv-color-on-primary);
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    queue: { state: true },
    index: { state: true },
    current: { state: true },
    images: { state: true },
    busy: { state: true },
    outcome: { state: true },
    conflict: { state: true },
    decisionError: { state: true },
  };

  /** Oldest first; a decided session leaves it. */
  declare queue: Session[] | null;
  declare index: number;
  declare current: Current | null;
  /** upload_id → blob: URL, or 'failed'. */
  declare images: Map<string, string>;
  declare busy: boolean;
  declare outcome: string;
  declare conflict: Conflict | null;
  declare decisionError: unknown;

  #showAbort: AbortController | null = null;
  #objectUrls: string[] = [];
  /** The last loaded session's id while the server has more (`has_more`), else null. */
  #more: string | null = null;
  readonly #onKey = (event: KeyboardEvent) => this.#shortcut(event);

  constructor() {
    super();
    this.queue = null;
    this.index = 0;
    this.current = null;
    this.images = new Map();
    this.busy = false;
    this.outcome = '';
    this.conflict = null;
    this.decisionError = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.#onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.#onKey);
    this.#showAbort?.abort();
    this.#releaseImages();
  }

  /** The queue belongs to the environment; `?session=` only picks where to start. */
  protected override loadKey(): string {
    return this.ctx.environment;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('query') && changed.get('query') !== undefined && this.queue) {
      const wanted = this.query.get('session');
      const index = wanted ? this.queue.findIndex((s) => s.session_id === wanted) : -1;
      if (index >= 0 && index !== this.index) void this.#show(index, false);
    }
  }

  protected override async load(signal: AbortSignal): Promise<void> {
    this.queue = null;
    this.current = null;
    this.#more = null;
    // Oldest first, by the server (`order=asc`): the queue is read a page at a time, however long it is.
    const sessions = await this.#page(signal);
    this.queue = sessions;
    const wanted = this.query.get('session');
    const start = Math.max(0, wanted ? sessions.findIndex((s) => s.session_id === wanted) : 0);
    if (sessions.length > 0) await this.#show(start, false);
  }

  /** The next page of the queue after `#more` (the first without it), remembering whether more follow. */
  async #page(signal?: AbortSignal): Promise<Session[]> {
    const list = await this.api.get<List<Session>>('/v1/sessions', {
      ...(signal ? { signal } : {}),
      query: {
        status: 'review_required',
        order: 'asc',
        limit: PAGE,
        ...(this.#more ? { starting_after: this.#more } : {}),
      },
    });
    this.#more = list.has_more ? (list.data.at(-1)?.session_id ?? null) : null;
    return list.data;
  }

  #releaseImages(): void {
    for (const url of this.#objectUrls) URL.revokeObjectURL(url);
    this.#objectUrls = [];
  }

  /** Shows the session at `index`: its result and evidence list, then each image as it arrives. */
  async #show(index: number, focus = true): Promise<void> {
    const queue = this.queue ?? [];
    const target = queue[index];
    if (!target) return;
    this.#showAbort?.abort();
    const abort = new AbortController();
    this.#showAbort = abort;
    this.#releaseImages();
    this.index = index;
    this.current = null;
    this.images = new Map();
    this.conflict = null;
    this.decisionError = null;
    const path = `/v1/sessions/${encodeURIComponent(target.session_id)}`;
    try {
      const [result, uploads] = await Promise.all([
        this.api.get<SessionResult>(`${path}/result`, { signal: abort.signal }),
        this.api.get<List<EvidenceUpload>>(`${path}/evidence`, { signal: abort.signal }),
      ]);
      if (abort.signal.aborted) return;
      this.current = { session: target, result, uploads: uploads.data };
    } catch (error) {
      if (!abort.signal.aborted) this.decisionError = error;
      return;
    }
    if (focus) void this.focusAfterRender('#current');
    await Promise.all(
      this.current.uploads.map(async (upload) => {
        let url = 'failed';
        try {
          const blob = await this.api.blob(
            `${path}/evidence/${encodeURIComponent(upload.upload_id)}`,
            abort.signal,
          );
          if (abort.signal.aborted) return;
          url = URL.createObjectURL(blob);
          this.#objectUrls.push(url);
        } catch {
          if (abort.signal.aborted) return;
        }
        this.images = new Map(this.images).set(upload.upload_id, url);
      }),
    );
  }

  async #step(delta: number): Promise<void> {
    const queue = this.queue ?? [];
    const next = this.index + delta;
    if (next >= queue.length && this.#more !== null) {
      try {
        this.queue = [...queue, ...(await this.#page())];
      } catch (error) {
        this.decisionError = error;
        return;
      }
    }
    if (next < 0 || next >= (this.queue ?? []).length) return;
    void this.#show(next);
  }

  #shortcut(event: KeyboardEvent): void {
    if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event) || !this.isConnected) return;
    switch (event.key) {
      case 'j':
        void this.#step(1);
        break;
      case 'k':
        void this.#step(-1);
        break;
      case 'a':
        void this.#decide('approve');
        break;
      case 'r':
        void this.#decide('reject');
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  #form(): { reasons: string[]; note: string } {
    const form = this.renderRoot.querySelector<HTMLFormElement>('#decision');
    if (!form) return { reasons: [], note: '' };
    const data = new FormData(form);
    return {
      reasons: data.getAll('reason').map(String),
      note: String(data.get('note') ?? '').trim(),
    };
  }

  async #decide(decision: 'approve' | 'reject'): Promise<void> {
    const current = this.current;
    if (!current || this.busy || this.conflict || !this.can('sessions:review')) return;
    const { reasons, note } = this.#form();
    const body: Record<string, unknown> = { decision };
    if (decision === 'reject' && reasons.length > 0) body['reason_codes'] = reasons;
    if (note) body['note'] = note;
    this.busy = true;
    this.decisionError = null;
    const id = current.session.session_id;
    try {
      const decided = await this.api.post<Session>(`/v1/sessions/${encodeURIComponent(id)}/review`, {
        body,
        idempotencyKey: actionKey(),
      });
      this.outcome = this.t('decisionSaved', { status: codeLabel(this.t, 'status_', decided.status) });
      this.#dropCurrent();
    } catch (error) {
      if (error instanceof ConsoleApiError && error.code === 'invalid_state_transition') {
        this.conflict = await this.#whoDecided(id, error);
        void this.focusAfterRender('#conflict');
      } else {
        this.decisionError = error;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Removes the decided session and shows the one that took its place (or the new last one). */
  #dropCurrent(): void {
    const queue = [...(this.queue ?? [])];
    queue.splice(this.index, 1);
    this.queue = queue;
    this.current = null;
    this.#releaseImages();
    if (queue.length > 0) void this.#show(Math.min(this.index, queue.length - 1));
    else void this.focusAfterRender('h1');
  }

  /**
   * Who decided a session first: the result says when and whether it was a person; the audit log (for
   * roles that may read it) names the user.
   */
  async #whoDecided(id: string, error: ConsoleApiError): Promise<Conflict> {
    const t = this.t;
    const fallback: Conflict = {
      status: String(error.problem.current_status ?? ''),
      who: t('someReviewer'),
      at: null,
    };
    try {
      const result = await this.api.get<SessionResult>(`/v1/sessions/${encodeURIComponent(id)}/result`);
      const conflict: Conflict = {
        status: result.status,
        who: result.decided_by === 'automated' ? t('decidedBy_automated') : t('someReviewer'),
        at: result.decided_at,
      };
      if (result.decided_by !== 'reviewer' || !this.can('audit:read')) return conflict;
      const audit = await this.api.get<List<AuditEvent>>('/v1/audit-events', {
        query: {
          target_type: 'session',
          target_id: id,
          action: ['session.review_approved', 'session.review_rejected'],
          limit: 1,
        },
      });
      const actorId = audit.data[0]?.actor.id;
      if (!actorId) return conflict;
      conflict.who = actorId;
      if (this.can('users:write') && actorId.startsWith('usr_')) {
        const user = await this.api.get<TenantUser>(`/v1/users/${encodeURIComponent(actorId)}`);
        conflict.who = user.email;
      }
      return conflict;
    } catch {
      return fallback;
    }
  }

  #renderShortcuts() {
    const t = this.t;
    return html`<section class="shortcuts card" aria-labelledby="shortcuts">
      <h2 id="shortcuts">${t('shortcutsTitle')}</h2>
      <dl>
        <dt><kbd>j</kbd></dt>
        <dd>${t('shortcutNext')}</dd>
        <dt><kbd>k</kbd></dt>
        <dd>${t('shortcutPrevious')}</dd>
        <dt><kbd>a</kbd></dt>
        <dd>${t('shortcutApprove')}</dd>
        <dt><kbd>r</kbd></dt>
        <dd>${t('shortcutReject')}</dd>
      </dl>
      <p class="muted">${t('shortcutsHint')}</p>
    </section>`;
  }

  #caption(upload: EvidenceUpload): string {
    const t = this.t;
    if (upload.kind === 'liveness_frame') return t('evidence_selfie', { n: (upload.frame_index ?? 0) + 1 });
    if (upload.side === 'front') return t('evidence_document_front');
    if (upload.side === 'back') return t('evidence_document_back');
    return t('evidence_document');
  }

  #renderEvidence(current: Current) {
    const t = this.t;
    if (current.uploads.length === 0) return html`<p>${t('noEvidence')}</p>`;
    const labels = {
      zoomIn: t('zoomIn'),
      zoomOut: t('zoomOut'),
      rotate: t('rotate'),
      reset: t('resetView'),
      failed: t('evidenceFailed'),
    };
    return html`<div class="images">
      ${current.uploads.map((upload) => {
        const url = this.images.get(upload.upload_id);
        const caption = this.#caption(upload);
        return html`<div>
          <idv-evidence-image
            .caption=${caption}
            .alt=${t('imageAlt', { kind: caption, width: upload.width, height: upload.height })}
            .src=${url && url !== 'failed' ? url : ''}
            .failed=${url === 'failed'}
            .labels=${labels}
          ></idv-evidence-image>
          ${
            upload.quality.issues.length > 0
              ? html`<p class="muted">${t('qualityIssues', { issues: upload.quality.issues.join(', ') })}</p>`
              : nothing
          }
        </div>`;
      })}
    </div>`;
  }

  #renderDecision() {
    const t = this.t;
    const disabled = this.busy || this.conflict !== null;
    return html`<form id="decision" @submit=${(event: Event) => event.preventDefault()}>
      <h3>${t('decisionTitle')}</h3>
      <fieldset>
        <legend>${t('rejectReasons')}</legend>
        <div class="checks-list">
          ${REASON_CODES.map(
            (code) => html`<div class="check">
              <input type="checkbox" id=${`reason-${code}`} name="reason" value=${code} />
              <label for=${`reason-${code}`}>${codeLabel(t, 'reason_', code)}</label>
            </div>`,
          )}
        </div>
      </fieldset>
      <div class="field">
        <label for="note">${t('note')}</label>
        <textarea id="note" name="note" maxlength="2000"></textarea>
      </div>
      <div class="actions">
        <button type="button" data-write ?disabled=${disabled} @click=${() => void this.#decide('approve')}>
          ${t('approve')} <kbd aria-hidden="true">a</kbd>
        </button>
        <button type="button" class="danger" data-write ?disabled=${disabled} @click=${() => void this.#decide('reject')}>
          ${t('reject')} <kbd aria-hidden="true">r</kbd>
        </button>
      </div>
    </form>`;
  }

  #renderCurrent(queue: Session[]) {
    const t = this.t;
    const session = queue[this.index];
    if (!session) return nothing;
    const current = this.current?.session.session_id === session.session_id ? this.current : null;
    const since = session.decided_at ?? session.created_at;
    return html`<section aria-labelledby="current">
      <div class="queue-nav">
        <button type="button" class="secondary small" ?disabled=${this.index === 0} @click=${() => void this.#step(-1)}>
          ${t('previous')} <kbd aria-hidden="true">k</kbd>
        </button>
        <button type="button" class="secondary small" ?disabled=${this.index >= queue.length - 1 && this.#more === null} @click=${() => void this.#step(1)}>
          ${t('next')} <kbd aria-hidden="true">j</kbd>
        </button>
      </div>
      <h2 id="current" tabindex="-1">
        ${t('positionOf', { current: this.index + 1, total: this.#more === null ? queue.length : `${queue.length}+` })}:
        <a class="mono" href=${consolePath(['sessions', session.session_id])}>${session.session_id}</a>
      </h2>
      <p class="muted">
        ${t('waitingSince', { time: `${this.date(since)} (${formatAge(this.ctx.locale, since)})` })} ·
        ${codeLabel(t, 'flow_', session.flow)} / ${session.tier} · ${session.country}
      </p>
      ${
        this.conflict
          ? html`<div id="conflict" class="notice bad" role="alert" tabindex="-1">
            <p>
              ${t('alreadyDecided', {
                status: codeLabel(t, 'status_', this.conflict.status),
                who: this.conflict.who,
                time: this.date(this.conflict.at),
              })}
            </p>
          </div>`
          : nothing
      }
      ${this.renderError(this.decisionError)}
      ${
        current
          ? html`<div class="workspace">
            <div>
              <h3>${t('evidenceTitle')}</h3>
              ${this.#renderEvidence(current)}
            </div>
            <div>${checksTable(t, this.ctx.locale, current.result.checks, t('sectionChecks'))}</div>
          </div>
          ${this.#renderDecision()}`
          : html`<p role="status" class="muted">${t('loading')}</p>`
      }
    </section>`;
  }

  #renderQueueList(queue: Session[]) {
    return html`<details class="queue-list">
      <summary>${this.t('queueCount', { count: queue.length })}</summary>
      <ol class="plain">
        ${queue.map(
          (session, index) => html`<li>
            <button type="button" class="secondary small" aria-current=${index === this.index ? 'true' : 'false'}
              @click=${() => void this.#show(index)}>
              <span class="mono">${session.session_id}</span> ${badge(this.t, 'status_', session.status)}
            </button>
          </li>`,
        )}
      </ol>
    </details>`;
  }

  override render() {
    const t = this.t;
    const queue = this.queue;
    return html`${this.heading(t('navReviews'), queue ? html`<span class="muted">${t('queueCount', { count: queue.length })}</span>` : nothing)}
      <p class="muted">${t('queueIntro')}</p>
      <div role="status">${this.outcome ? html`<p class="notice">${this.outcome}</p>` : nothing}</div>
      ${this.renderError()} ${this.renderLoading()}
      ${
        queue && queue.length === 0
          ? html`<h2>${t('queueEmptyTitle')}</h2>
            <p>${t('queueEmptyBody')}</p>`
          : nothing
      }
      ${queue && queue.length > 0 ? html`${this.#renderQueueList(queue)} ${this.#renderCurrent(queue)}` : nothing}
      ${this.#renderShortcuts()}`;
  }
}

if (!customElements.get('idv-review-screen')) customElements.define('idv-review-screen', ReviewScreen);
