import { executeServerCommand } from '@web/test-runner-commands';
import type { E2eCommand } from '../../../support-server/e2e-plugin.ts';
import type { CreatedSession, StoredUpload, TenantAnswer } from '../../../support-server/tenant-backend.ts';

/**
 * The page's view of the tenant's backend: each call runs in Node (test/support-server/e2e-plugin.ts)
 * against the real server, with the sandbox key kept there. The page only ever holds a `verify_url`.
 */
function command<T>(name: E2eCommand, payload: Record<string, unknown> = {}): Promise<T> {
  return executeServerCommand<T, Record<string, unknown>>(name, payload) as Promise<T>;
}

/** A sandbox session created through `POST /v1/sessions`, as the tenant's server would. */
export function createSession(body: Record<string, unknown>): Promise<CreatedSession> {
  return command('idv-e2e:create-session', { body });
}

export function readSession(sessionId: string): Promise<TenantAnswer<Record<string, any>>> {
  return command('idv-e2e:session', { session_id: sessionId });
}

export function readResult(sessionId: string): Promise<TenantAnswer<Record<string, any>>> {
  return command('idv-e2e:result', { session_id: sessionId });
}

/** The session's uploads with what the stored bytes decode to (format, size) on the server side. */
export function readEvidence(sessionId: string): Promise<StoredUpload[]> {
  return command('idv-e2e:evidence', { session_id: sessionId });
}

export function simulate(sessionId: string, action: string): Promise<TenantAnswer<Record<string, any>>> {
  return command('idv-e2e:simulate', { session_id: sessionId, action });
}

export function newVerifyUrl(sessionId: string): Promise<TenantAnswer<Record<string, any>>> {
  return command('idv-e2e:new-verify-url', { session_id: sessionId });
}
