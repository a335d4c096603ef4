import { executeServerCommand } from '@web/test-runner-commands';
import type { E2eCommand } from '../../../support-server/e2e-plugin.ts';
import type { CreatedSession, StoredUpload, TenantAnswer } from '../../../support-server/tenant-backend.ts';

/**
 * The page's view of the tenant's backend: each call runs in Node (test/support-server/e2e-plugin.ts)
 * against the real server, with the sandbox key kept there. The page only ever holds a `verify_url`.
 */
async function command<T>(name: E2eCommand, payload: Record<string, unknown> = {}): Promise<T> {
  // The page gives up on a command after 20 s, but the first one waits for the server to start, which
  // can take longer on a busy machine: ask again (the plugin starts the server once and waits for it).
  for (let attempt = 1; ; attempt++) {
    try {
      return (await executeServerCommand<T, Record<string, unknown>>(name, payload)) as T;
    } catch (error) {
      if (attempt >= 6 || !/Did not receive a server response/.test(String(error))) throw error;
    }
  }
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
