import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { RequestOf, Schemas } from '../api/console-api.ts';
import { REASON_CODES } from '../api/lists.ts';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/console-path.ts';
import { checksTable, reasonList } from '../ui/checks-view.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { documentDataComparison } from '../ui/document-data.ts';
import { downloadBlob } from '../ui/download.ts';
import '../ui/evidence-image.ts';
import { faceComparison, type ShownImage } from '../ui/face-comparison.ts';
import { formatAge } from '../ui/format.ts';
import { type ClaimState, claimControls } from '../ui/review-claim.ts';
import { claimLabel, QUEUE_FILTERS, queueFilters, waitingBadge } from '../ui/review-queue-view.ts';
import { actionKey, formQuery } from '../ui/widgets.ts';
import { reviewStyles } from './review-screen-styles.ts';

type DocumentData = Schemas['DocumentData'];
type EvidenceUpload = Schemas['EvidenceUpload'];
type ReviewQueueItem = Schemas['ReviewQueueItem'];
type SessionResult = Schemas['SessionResult'];
type TenantUser = Schemas['TenantUser'];

/** Sessions read per page; the next page is read when the reviewer moves past the last one loaded. */
const PAGE = 100;

/** How often a held claim is renewed: claims last 30 minutes on the server. */
const CLAIM_RENEW_MS = 10 * 60_000;

interface Current {
  session: ReviewQueueItem;
  result: SessionResult;
  uploads: EvidenceUpload[];
  /** The document's values per source; null when they cannot be read (`documentDataNote` says why). */
  documentData: DocumentData | null;
  documentDataNote: string;
}

interface Conflict {
  status: string;
  who: string;
  at: string | null;
}

/**
 * Resolves once the browser has painted what was just rendered (the next frame, then a task after it), or
 * after `ms` where no frame comes (a hidden tab): what a screen shows second waits for this, so the first
 * part is a task of its own, painted first.
 */
function afterPaint(ms = 100): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
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
  static override styles = [...ConsoleScreen.styles, reviewStyles];

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
    claim: { state: true },
    assignees: { state: true },
    belowFold: { state: true },
  };

  /** Oldest first; a decided session leaves it. */
  declare queue: ReviewQueueItem[] | null;
  /** The members a tenant admin may assign a session to (active reviewers and admins). */
  declare assignees: TenantUser[];
  declare index: number;
  declare current: Current | null;
  /** upload_id → blob: URL, or 'failed'. */
  declare images: Map<string, string>;
  declare busy: boolean;
  declare outcome: string;
  declare conflict: Conflict | null;
  declare decisionError: unknown;
  /** The current session's claim as this reviewer sees it (ui/review-claim.ts). */
  declare claim: ClaimState;
  /**
   * Whether the current session's below-the-fold parts (the checks table, the evidence list) are shown:
   * they render a frame after the reason, the comparison and the decision, so that the first render of a
   * session is not one long task on a slow phone.
   */
  declare belowFold: boolean;
  #claimTimer: ReturnType<typeof setInterval> | null = null;

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
    this.claim = { kind: 'none' };
    this.assignees = [];
    this.belowFold = false;
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
    this.#leaveClaim();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('query') && changed.get('query') !== undefined && this.queue) {
      const wanted = this.query.get('session');
      const index = wanted ? this.queue.findIndex((s) => s.session_id === wanted) : -1;
      if (index >= 0 && index !== this.index) void this.#show(index, false);
    }
  }

  /**
   * The queue's first page and its first session (or `?session=`'s). The queue belongs to the environment
   * and its filters (`?session=` only picks where to start); it is the screen's working state from then on
   * (`queue`: paged further, decided sessions leaving it), so this task fills it rather than returning it.
   */
  readonly #queue = new Task(this, {
    args: () => [this.ctx.environment, ...QUEUE_FILTERS.map((name) => this.query.get(name) ?? '')],
    task: async (_, { signal }) => {
      this.queue = null;
      this.current = null;
      this.#more = null;
      // Oldest first, by the server (`order=asc`): the queue is read a page at a time, however long it is.
      // The first session is read as soon as the queue is, not after the members list (an admin's
      // assignment choices, which never fails the load): that list is not what the reviewer looks at first.
      const assignees = this.#loadAssignees(signal);
      const sessions = await this.#page(signal);
      this.queue = sessions;
      const wanted = this.query.get('session');
      const start = Math.max(0, wanted ? sessions.findIndex((s) => s.session_id === wanted) : 0);
      await Promise.all([sessions.length > 0 ? this.#show(start, false) : null, assignees]);
    },
  });

  /** The next page of the queue after `#more` (the first without it), remembering whether more follow. */
  async #page(signal?: AbortSignal): Promise<ReviewQueueItem[]> {
    const list = await this.api.get('/v1/review-queue', {
      ...(signal ? { signal } : {}),
      query: {
        q: this.query.get('q')?.trim(),
        reason_code: this.query.get('reason'),
        claim: this.query.get('claim'),
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
    this.#leaveClaim();
    this.index = index;
    this.current = null;
    this.belowFold = false;
    this.images = new Map();
    this.conflict = null;
    this.decisionError = null;
    const params = { id: target.session_id };
    // The claim is asked for beside the reads (it never throws), so the decision panel first shows with
    // its claim bar filled instead of growing one when the claim comes back.
    const claimed = this.#claim(target.session_id, 'claim');
    try {
      const [result, uploads, documentData] = await Promise.all([
        this.api.get('/v1/sessions/{id}/result', { params, signal: abort.signal }),
        this.api.get('/v1/sessions/{id}/evidence', { params, signal: abort.signal }),
        this.#documentData(params, abort.signal),
        claimed,
      ]);
      if (abort.signal.aborted) return;
      this.current = { session: target, result, uploads: uploads.data, ...documentData };
    } catch (error) {
      if (!abort.signal.aborted) this.decisionError = error;
      return;
    }
    if (focus) void this.focusAfterRender('#current');
    void this.#showBelowFold(abort.signal);
    await Promise.all(
      this.current.uploads.map(async (upload) => {
        let url = 'failed';
        try {
          const blob = await this.api.blob(
            `/v1/sessions/${encodeURIComponent(upload.session_id)}/evidence/${encodeURIComponent(upload.upload_id)}`,
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

  /** The checks table and the evidence list, once the first part of the session has been painted. */
  async #showBelowFold(signal: AbortSignal): Promise<void> {
    await this.updateComplete;
    await afterPaint();
    if (!signal.aborted) this.belowFold = true;
  }

  /**
   * The document's values per source, for roles that may read personal data (the server audits the
   * read). Null with a sentence when they cannot be had: the comparison then names the fields only.
   */
  async #documentData(
    params: { id: string },
    signal: AbortSignal,
  ): Promise<{ documentData: DocumentData | null; documentDataNote: string }> {
    if (!this.can('identities:read_pii'))
      return { documentData: null, documentDataNote: this.t('docDataNoPii') };
    try {
      const data = await this.api.get('/v1/sessions/{id}/document-data', { params, signal });
      return { documentData: data, documentDataNote: '' };
    } catch (error) {
      if (signal.aborted) throw error;
      // A session without a document answers 200 with no source; route_not_found: a server without
      // this operation.
      return { documentData: null, documentDataNote: this.t('docDataNone') };
    }
  }

  /**
   * The queue's sessions under its search and reason filter as CSV (`GET /v1/exports/sessions`, audited
   * by the server). The claim filter is the queue's own and has no export counterpart.
   */
  async #export(): Promise<void> {
    const query = new URLSearchParams({ status: 'review_required', order: 'asc' });
    const q = this.query.get('q')?.trim();
    const reason = this.query.get('reason');
    if (q) query.set('q', q);
    if (reason) query.set('reason_code', reason);
    this.decisionError = null;
    try {
      const csv = await this.api.blob(`/v1/exports/sessions?${query}`);
      downloadBlob(csv, `review-queue-${this.ctx.environment}-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      this.decisionError = error;
    }
  }

  /** For a tenant admin: who a session can be assigned to (members who can review). */
  async #loadAssignees(signal: AbortSignal): Promise<void> {
    if (!this.can('sessions:assign') || !this.can('users:write')) return;
    try {
      const users = await this.api.get('/v1/users', { signal, query: { limit: 100 } });
      this.assignees = users.data.filter(
        (user) => user.status === 'active' && (user.role === 'reviewer' || user.role === 'tenant_admin'),
      );
    } catch {
      // Without the list the screen still reviews; only the assignment is not offered.
      this.assignees = [];
    }
  }

  /** Who a user id is, in words: an e-mail when the console knows it. */
  #who(userId: string): string {
    const me = this.ctx.me?.user;
    if (me?.user_id === userId) return me.email;
    return this.assignees.find((user) => user.user_id === userId)?.email ?? userId;
  }

  async #assign(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const current = this.current;
    const userId = String(new FormData(event.currentTarget as HTMLFormElement).get('assignee') ?? '');
    if (!current || !userId) return;
    this.busy = true;
    this.decisionError = null;
    try {
      const claim = await this.api.put('/v1/sessions/{id}/assignment', {
        params: { id: current.session.session_id },
        body: { user_id: userId },
        idempotencyKey: actionKey(),
      });
      this.outcome = this.t('assignedNotice', { who: this.#who(userId) });
      this.claim =
        claim.reviewer_id === this.ctx.me?.user.user_id
          ? { kind: 'mine', claim }
          : { kind: 'theirs', holder: claim.reviewer_id, until: null, confirming: false };
      this.queue = (this.queue ?? []).map((item) =>
        item.session_id === claim.session_id ? { ...item, claim } : item,
      );
    } catch (error) {
      this.decisionError = error;
    } finally {
      this.busy = false;
    }
  }

  #renderAssignment() {
    const t = this.t;
    if (this.assignees.length === 0) return nothing;
    return html`<form class="assign" @submit=${(event: SubmitEvent) => void this.#assign(event)}>
      <div class="field">
        <label for="assignee">${t('assignTo')}</label>
        <select id="assignee" name="assignee">
          ${this.assignees.map((user) => html`<option value=${user.user_id}>${user.email}</option>`)}
        </select>
      </div>
      <button type="submit" class="secondary small" data-write ?disabled=${this.busy}>${t('assign')}</button>
    </form>`;
  }

  // ---- claims (issue 25): one reviewer at a time, taken over explicitly ----------------------------

  /** Claims (or renews, or takes over) the session shown; a server without claims leaves it 'none'. */
  async #claim(sessionId: string, how: 'claim' | 'take-over'): Promise<void> {
    if (!this.can('sessions:review')) return;
    const params = { id: sessionId };
    this.busy = how === 'take-over' || this.busy;
    try {
      const claim = await (how === 'take-over'
        ? this.api.post('/v1/sessions/{id}/claim/take-over', { params, idempotencyKey: actionKey() })
        : this.api.post('/v1/sessions/{id}/claim', { params, idempotencyKey: actionKey() }));
      if (!this.#showing(sessionId)) {
        // The reviewer moved on while it was asked for (j, j, j): not theirs to keep for half an hour.
        if (claim.expires_at !== null) {
          this.api.delete('/v1/sessions/{id}/claim', { params }).catch(() => undefined);
        }
        return;
      }
      this.claim = { kind: 'mine', claim };
      this.#renewLater(sessionId);
      if (how === 'take-over') void this.focusAfterRender('#claim');
    } catch (error) {
      if (!this.#showing(sessionId) || !(error instanceof ConsoleApiError)) return;
      if (error.code === 'review_claimed') {
        this.#claimedBy(error);
        return;
      }
      // A server without claims (route_not_found) still reviews; a session gone shows when deciding.
      if (error.code === 'route_not_found' || (error.status === 404 && how === 'claim')) return;
      this.decisionError = error;
    } finally {
      if (how === 'take-over') this.busy = false;
    }
  }

  /** Whether `sessionId` is the session on screen (loaded or still loading). */
  #showing(sessionId: string): boolean {
    return this.queue?.[this.index]?.session_id === sessionId;
  }

  #claimedBy(error: ConsoleApiError): void {
    // Someone else holds it now: nothing of mine to renew.
    if (this.#claimTimer !== null) clearInterval(this.#claimTimer);
    this.#claimTimer = null;
    const holder = String(error.problem.claimed_by ?? '');
    const until = error.problem.claimed_until;
    this.claim = {
      kind: 'theirs',
      holder,
      until: typeof until === 'string' ? until : null,
      confirming: false,
    };
  }

  #renewLater(sessionId: string): void {
    if (this.#claimTimer !== null) clearInterval(this.#claimTimer);
    this.#claimTimer = setInterval(() => void this.#claim(sessionId, 'claim'), CLAIM_RENEW_MS);
  }

  /** Stops renewing; a claim this reviewer holds is released so a colleague can pick the session up. */
  #leaveClaim(): void {
    if (this.#claimTimer !== null) clearInterval(this.#claimTimer);
    this.#claimTimer = null;
    const claim = this.claim;
    this.claim = { kind: 'none' };
    if (claim.kind === 'mine' && claim.claim.expires_at !== null) {
      this.api
        .delete('/v1/sessions/{id}/claim', { params: { id: claim.claim.session_id } })
        .catch(() => undefined);
    }
  }

  async #release(): Promise<void> {
    const claim = this.claim;
    if (claim.kind !== 'mine') return;
    this.busy = true;
    try {
      await this.api.delete('/v1/sessions/{id}/claim', { params: { id: claim.claim.session_id } });
      if (this.#claimTimer !== null) clearInterval(this.#claimTimer);
      this.#claimTimer = null;
      this.claim = { kind: 'none' };
      this.outcome = this.t('claimReleased');
    } catch (error) {
      this.decisionError = error;
    } finally {
      this.busy = false;
    }
  }

  #claimActions() {
    return {
      who: (userId: string) => this.#who(userId),
      date: (iso: string | null) => this.date(iso),
      busy: this.busy,
      onTakeOver: () => {
        if (this.claim.kind === 'theirs') {
          this.claim = { ...this.claim, confirming: true };
          void this.focusAfterRender('#confirm-take-over');
        }
      },
      onConfirmTakeOver: () => {
        const id = this.current?.session.session_id;
        if (id) void this.#claim(id, 'take-over');
      },
      onCancelTakeOver: () => {
        if (this.claim.kind === 'theirs') {
          this.claim = { ...this.claim, confirming: false };
          void this.focusAfterRender('#take-over');
        }
      },
      onRelease: () => void this.#release(),
    };
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
    if (this.claim.kind === 'theirs') return;
    const { reasons, note } = this.#form();
    const body: RequestOf<'/v1/sessions/{id}/review', 'post'> = { decision };
    // The checkboxes offer exactly REASON_CODES.
    if (decision === 'reject' && reasons.length > 0) body.reason_codes = reasons as typeof REASON_CODES;
    if (note) body.note = note;
    this.busy = true;
    this.decisionError = null;
    const id = current.session.session_id;
    try {
      const decided = await this.api.post('/v1/sessions/{id}/review', {
        params: { id },
        body,
        idempotencyKey: actionKey(),
      });
      this.outcome = this.t('decisionSaved', { status: codeLabel(this.t, 'status_', decided.status) });
      // The decision ended the claim on the server: nothing to release.
      this.claim = { kind: 'none' };
      this.#dropCurrent();
    } catch (error) {
      if (error instanceof ConsoleApiError && error.code === 'review_claimed') {
        this.#claimedBy(error);
        void this.focusAfterRender('#claim');
      } else if (error instanceof ConsoleApiError && error.code === 'invalid_state_transition') {
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
      const result = await this.api.get('/v1/sessions/{id}/result', { params: { id } });
      const conflict: Conflict = {
        status: result.status,
        who: result.decided_by === 'automated' ? t('decidedBy_automated') : t('someReviewer'),
        at: result.decided_at,
      };
      if (result.decided_by !== 'reviewer' || !this.can('audit:read')) return conflict;
      const audit = await this.api.get('/v1/audit-events', {
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
        const user = await this.api.get('/v1/users/{id}', { params: { id: actorId } });
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
      <p class="muted">${t('imageKeysHint')}</p>
    </section>`;
  }

  #caption(upload: EvidenceUpload): string {
    const t = this.t;
    if (upload.kind === 'liveness_frame') return t('evidence_selfie', { n: (upload.frame_index ?? 0) + 1 });
    if (upload.side === 'front') return t('evidence_document_front');
    if (upload.side === 'back') return t('evidence_document_back');
    return t('evidence_document');
  }

  #shown(upload: EvidenceUpload): ShownImage {
    return { upload, url: this.images.get(upload.upload_id) ?? '', caption: this.#caption(upload) };
  }

  /** Why the session waits for a person: the result's reasons, else the codes of the checks not passed. */
  #renderReasons(current: Current) {
    const t = this.t;
    const codes = new Set(current.result.reasons.map((reason) => reason.code));
    if (codes.size === 0) {
      for (const check of current.result.checks)
        if (check.status !== 'passed') for (const code of check.reason_codes) codes.add(code);
    }
    const open = current.result.checks.filter((c) => c.status === 'failed' || c.status === 'inconclusive');
    return html`<div id="review-reasons" class="notice" role="group" aria-labelledby="review-reasons-title">
      <h3 id="review-reasons-title">${t('reviewReasonsTitle')}</h3>
      ${reasonList(t, [...codes])}
      ${
        open.length > 0
          ? html`<p class="muted">${t('reviewChecksOpen', {
              checks: open
                .map((c) => `${codeLabel(t, 'check_', c.type)} (${codeLabel(t, 'checkStatus_', c.status)})`)
                .join(', '),
            })}</p>`
          : nothing
      }
    </div>`;
  }

  #renderComparison(current: Current) {
    const t = this.t;
    const checks = current.result.checks;
    const front =
      current.uploads.find((u) => u.kind === 'document' && u.side !== 'back') ??
      current.uploads.find((u) => u.kind === 'document');
    const frames = current.uploads.filter((u) => u.kind === 'liveness_frame').map((u) => this.#shown(u));
    return html`${faceComparison(
      t,
      this.ctx.locale,
      front ? this.#shown(front) : null,
      frames,
      checks.find((c) => c.type === 'face_match') ?? null,
    )}
    ${documentDataComparison(
      t,
      current.documentData,
      checks.find((c) => c.type === 'data_consistency') ?? null,
      current.documentDataNote,
    )}`;
  }

  #renderEvidence(current: Current) {
    const t = this.t;
    if (current.uploads.length === 0) return html`<p>${t('noEvidence')}</p>`;
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
    const disabled = this.busy || this.conflict !== null || this.claim.kind === 'theirs';
    // The buttons first: they stay in view at 1280 × 800 however long the list of reasons grows.
    return html`<div class="decision-panel"><form id="decision" class="card" @submit=${(event: Event) => event.preventDefault()}>
      <h3>${t('decisionTitle')}</h3>
      ${claimControls(t, this.claim, this.#claimActions())}
      <div class="actions">
        <button type="button" id="approve" data-write ?disabled=${disabled} @click=${() => void this.#decide('approve')}>
          ${t('approve')} <kbd aria-hidden="true">a</kbd>
        </button>
        <button type="button" id="reject" class="danger" data-write ?disabled=${disabled} @click=${() => void this.#decide('reject')}>
          ${t('reject')} <kbd aria-hidden="true">r</kbd>
        </button>
      </div>
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
    </form>
    ${this.#renderAssignment()}</div>`;
  }

  #renderCurrent(queue: ReviewQueueItem[]) {
    const t = this.t;
    const session = queue[this.index];
    if (!session) return nothing;
    const current = this.current?.session.session_id === session.session_id ? this.current : null;
    const since = session.waiting_since;
    return html`<section class="review" aria-labelledby="current">
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
      <p>${waitingBadge(t, this.ctx.locale, session)}</p>
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
          ? html`${this.#renderReasons(current)}
            <div class="review-grid">
              <div>${this.#renderComparison(current)}</div>
              ${this.#renderDecision()}
            </div>
            ${
              this.belowFold
                ? html`${checksTable(t, this.ctx.locale, current.result.checks, t('sectionChecks'))}
                  <h3>${t('evidenceTitle')}</h3>
                  ${this.#renderEvidence(current)}`
                : html`<div class="below-fold-pending"></div>`
            }`
          : this.#renderSkeleton()
      }
    </section>`;
  }

  /** Where the session's parts will be, while it loads (see `.skeleton`): the loading notice first. */
  #renderSkeleton() {
    return html`<div class="skeleton" aria-busy="true">
      <p role="status" class="muted">${this.t('loading')}</p>
      <div class="block reasons"></div>
      <div class="review-grid">
        <div class="block"></div>
        <div class="block"></div>
      </div>
    </div>`;
  }

  #renderQueueList(queue: ReviewQueueItem[]) {
    // Rendered again only when what it shows changes, not when each image of the session arrives.
    return guard([queue, this.index, this.assignees, this.t, this.ctx.locale, this.ctx.me], () =>
      this.#queueList(queue),
    );
  }

  #queueList(queue: ReviewQueueItem[]) {
    const t = this.t;
    return html`<details class="queue-list">
      <summary>${t('queueCount', { count: queue.length })}</summary>
      <ol class="plain">
        ${queue.map(
          (item, index) => html`<li>
            <button type="button" class="secondary small" aria-current=${index === this.index ? 'true' : 'false'}
              @click=${() => void this.#show(index)}>
              <span class="mono">${item.session_id}</span>
              ${item.external_user_reference ? html`<span>${item.external_user_reference}</span>` : nothing}
              ${waitingBadge(t, this.ctx.locale, item)}
              <span>${claimLabel(t, item, (id) => this.#who(id))}</span>
            </button>
          </li>`,
        )}
      </ol>
    </details>`;
  }

  override render() {
    const t = this.t;
    const queue = this.queue;
    // The count's room is kept while the queue loads: arriving, it would wrap a narrow heading row.
    return html`${this.heading(t('navReviews'), html`<span class="muted queue-count">${queue ? t('queueCount', { count: queue.length }) : '\u00a0'}</span>`)}
      <p class="muted">${t('queueIntro')}</p>
      ${queueFilters(
        t,
        this.query,
        (form) => this.navigate(consolePath(['reviews'], formQuery(form))),
        consolePath(['reviews']),
        this.can('sessions:read') ? () => void this.#export() : null,
      )}
      <div role="status">${this.outcome ? html`<p class="notice">${this.outcome}</p>` : nothing}</div>
      ${this.#queue.render({
        pending: () => (queue === null ? this.#renderSkeleton() : nothing),
        error: (error) => this.renderError(error),
      })}
      ${
        queue && queue.length === 0
          ? QUEUE_FILTERS.some((name) => this.query.get(name))
            ? html`<p>${t('queueNoMatch')}</p>`
            : html`<h2>${t('queueEmptyTitle')}</h2>
              <p>${t('queueEmptyBody')}</p>`
          : nothing
      }
      ${
        queue && queue.length > 0
          ? html`${this.#renderQueueList(queue)} ${this.#renderCurrent(queue)} ${this.#renderShortcuts()}`
          : nothing
      }`;
  }
}

if (!customElements.get('idv-review-screen')) customElements.define('idv-review-screen', ReviewScreen);
