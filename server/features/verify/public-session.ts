import type { AppDeps } from '../../app-deps.ts';
import {
  BUSINESS_DOCUMENT_TYPES,
  ID_DOCUMENT_TYPES,
  PROOF_OF_ADDRESS_DOCUMENT_TYPES,
} from '../../domain/review/review-input.ts';
import type { ReadDetails, ReadDocumentDetails } from '../evidence/document-reading-details.ts';
import { readIdDocumentDetails } from '../evidence/document-reading-of-session.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { TenantRow } from '../../store/tenants.ts';

/** Document types the end-user may pick, per step (API.md §9). */
export const ACCEPTED_DOCUMENT_TYPES = {
  id_document: ID_DOCUMENT_TYPES,
  proof_of_address: PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  business_document: BUSINESS_DOCUMENT_TYPES,
} as const;

/**
 * The session as the end-user's page sees it (API.md §9): progress and presentation only. No external
 * reference, metadata, decision reasons or anything the end-user typed; `redirect_url` appears once the
 * session is over, for the hosted page to send the end-user back.
 */
export function toPublicSession(session: SessionRow, tenant: TenantRow) {
  const over = !['created', 'collecting', 'processing'].includes(session.status);
  const accepted: Record<string, string[]> = {};
  for (const [step, types] of Object.entries(ACCEPTED_DOCUMENT_TYPES)) {
    if (session.required_steps.includes(step as keyof typeof ACCEPTED_DOCUMENT_TYPES))
      accepted[step] = [...types];
  }
  return {
    object: 'verify_session' as const,
    session_id: session.id,
    status: session.status,
    flow: session.flow,
    tier: session.tier,
    country: session.country,
    required_steps: session.required_steps,
    steps: session.steps,
    expires_at: session.expires_at.toISOString(),
    sandbox: session.environment === 'sandbox',
    tenant: { name: tenant.name, branding: tenant.branding },
    accepted_document_types: accepted,
    redirect_url: over ? session.redirect_url : null,
  };
}

export type PublicSession = ReturnType<typeof toPublicSession>;

/** What the end-user's page may prefill from the document (API: `prefill`); `{}` when nothing was read. */
export interface PublicPrefill {
  id_document?: {
    source: ReadDetails['source'];
    details: ReadDocumentDetails;
    details_required: boolean;
  };
}

/**
 * The session view's `prefill`: the details read off the reviewed identity document, for the end-user's
 * own form, while the session still collects evidence (a finished session shows none). These are the
 * end-user's own values, answered only to the holder of the session's verify token.
 *
 * @example
 * await prefillOf(deps.db, deps, session) // { id_document: { source: 'mrz', details: {…}, details_required: false } }
 */
export async function prefillOf(
  sql: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  session: SessionRow,
): Promise<PublicPrefill> {
  if (session.status !== 'collecting' || !session.required_steps.includes('id_document')) return {};
  const read = await readIdDocumentDetails(sql, deps, session);
  if (read === null) return {};
  return {
    id_document: { source: read.source, details: read.details, details_required: read.details_required },
  };
}
