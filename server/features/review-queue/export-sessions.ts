import type { AppDeps } from '../../app-deps.ts';
import { isOverdue } from '../../domain/session-status.ts';
import { ApiError } from '../../errors/api-error.ts';
import { evidenceCipherContext } from '../evidence/evidence-keys.ts';
import type { StoredIdDocumentDetails } from '../evidence/stored-details.ts';
import { sessionCipherContext } from '../sessions/session-object.ts';
import { readSession } from '../sessions/transition-session.ts';
import { idDocumentDetailsOf, latestDecisionsOf } from '../../store/session-export.ts';
import {
  type ListOrder,
  listSessions,
  type Scope,
  type SessionFilters,
  type SessionRow,
} from '../../store/sessions.ts';
import { csvLine } from './csv.ts';

/** The most sessions one export holds: a larger selection is refused, so no export is silently cut. */
export const MAX_EXPORT_ROWS = 10_000;
const PAGE = 500;

export const EXPORT_COLUMNS = [
  'session_id',
  'status',
  'environment',
  'country',
  'flow',
  'tier',
  'created_at',
  'submitted_at',
  'decided_at',
  'decision',
  'decided_by',
  'reviewer_id',
  'reason_codes',
] as const;

/** Personal values, exported only to a caller with `identities:read_pii`. */
export const PERSONAL_EXPORT_COLUMNS = ['external_user_reference', 'first_name', 'last_name'] as const;

type Deps = Pick<AppDeps, 'db' | 'cipher' | 'clock' | 'ids' | 'config'>;

/**
 * Every session the filters select, in list order, as the list would show each one (an overdue open
 * session is expired first). More than {@link MAX_EXPORT_ROWS} is 400 `invalid_parameter`.
 */
export async function selectSessionsToExport(
  deps: Deps,
  scope: Scope,
  filters: SessionFilters,
  order: ListOrder,
): Promise<SessionRow[]> {
  const selected: SessionRow[] = [];
  let after: { created_at: Date; id: string } | undefined;
  for (;;) {
    const { rows, hasMore } = await listSessions(
      deps.db,
      scope,
      filters,
      { limit: PAGE, ...(after ? { after } : {}) },
      order,
    );
    selected.push(...rows);
    if (selected.length > MAX_EXPORT_ROWS) {
      throw new ApiError(
        'invalid_parameter',
        `More than ${MAX_EXPORT_ROWS} sessions match; narrow the filters (e.g. created_gte and created_lte).`,
        { param: 'created_gte' },
      );
    }
    const last = rows.at(-1);
    if (!hasMore || !last) break;
    after = { created_at: last.created_at, id: last.id };
  }
  const now = deps.clock.now();
  const current: SessionRow[] = [];
  for (const row of selected) {
    current.push(
      isOverdue(row.status, row.expires_at, now) ? await readSession(deps.db, deps, scope, row.id, row) : row,
    );
  }
  return current;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The CSV of the sessions, header first, produced a few hundred rows at a time (decisions and, with
 * `personal`, the decrypted reference and names are read per chunk), so memory stays bounded by a chunk.
 */
export function sessionsCsv(
  deps: Deps,
  scope: Scope,
  sessions: readonly SessionRow[],
  personal: boolean,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(csvLine([...EXPORT_COLUMNS, ...(personal ? PERSONAL_EXPORT_COLUMNS : [])])),
      );
    },
    async pull(controller) {
      const chunk = sessions.slice(next, next + PAGE);
      next += chunk.length;
      if (chunk.length === 0) {
        controller.close();
        return;
      }
      const ids = chunk.map((session) => session.id);
      const decisions = await latestDecisionsOf(deps.db, scope, ids);
      const details = personal ? await idDocumentDetailsOf(deps.db, scope, ids) : new Map<string, string>();
      let text = '';
      for (const session of chunk) {
        const decision = decisions.get(session.id);
        const values = [
          session.id,
          session.status,
          session.environment,
          session.country,
          session.flow,
          session.tier,
          iso(session.created_at),
          iso(session.submitted_at),
          iso(session.decided_at),
          decision?.outcome ?? null,
          decision?.decided_by ?? null,
          decision?.reviewer_id ?? null,
          decision ? [...new Set(decision.reasons.map((reason) => reason.code))].join(';') : null,
        ];
        if (personal) values.push(...(await personalValuesOf(deps, session, details.get(session.id))));
        text += csvLine(values);
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

async function personalValuesOf(
  deps: Deps,
  session: SessionRow,
  detailsEnc: string | undefined,
): Promise<(string | null)[]> {
  const reference = session.external_user_ref_enc
    ? await deps.cipher.decrypt(
        session.external_user_ref_enc,
        sessionCipherContext.externalUserReference(session.id),
      )
    : null;
  const details = detailsEnc
    ? await deps.cipher.decryptJson<StoredIdDocumentDetails>(
        detailsEnc,
        evidenceCipherContext.details(session.id, 'id_document'),
      )
    : null;
  return [reference, details?.first_name ?? null, details?.last_name ?? null];
}
