import type { TestRunnerPlugin } from '@web/test-runner';
import { type E2eServer, startE2eServer } from './e2e-server.ts';
import { TenantBackend } from './tenant-backend.ts';

/**
 * Server commands of the browser end-to-end tests (test/browser/e2e/**), called from the page with
 * `executeServerCommand(name, payload)`. Each name and its payload / answer:
 *
 * - `idv-e2e:create-session` `{body}` → the `POST /v1/sessions` answer (the tenant's backend creating a
 *   session with its sandbox key; the page receives only `verify_url`)
 * - `idv-e2e:session` / `idv-e2e:result` / `idv-e2e:evidence` `{session_id}` → the tenant's reads
 * - `idv-e2e:simulate` `{session_id, action}` → `POST /v1/sandbox/sessions/:id/simulate`
 * - `idv-e2e:new-verify-url` `{session_id}` → `POST /v1/sessions/:id/verify-url`
 */
export type E2eCommand =
  | 'idv-e2e:create-session'
  | 'idv-e2e:session'
  | 'idv-e2e:result'
  | 'idv-e2e:evidence'
  | 'idv-e2e:simulate'
  | 'idv-e2e:new-verify-url';

interface Payload {
  body?: Record<string, unknown>;
  session_id?: string;
  action?: string;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`payload.${name} is required`);
  return value;
}

/**
 * A web-test-runner plugin that starts the real server (server/node.ts in a child process, see
 * e2e-server.ts) on the first e2e command and stops it when the test run ends, so suites that never
 * call it pay nothing.
 *
 * @example
 *   // web-test-runner.config.mjs
 *   plugins: [e2eServerPlugin()]
 *   // in a test
 *   const session = await executeServerCommand('idv-e2e:create-session', { body: { country: 'FRA', flow: 'user', tier: 'tier2' } });
 */
export function e2eServerPlugin(): TestRunnerPlugin<Payload> {
  let server: Promise<E2eServer> | null = null;
  const backend = async () => {
    server ??= startE2eServer();
    const running = await server;
    return new TenantBackend(running.baseUrl, running.sandboxKey);
  };

  return {
    name: 'idv-e2e-server',

    async executeCommand({ command, payload = {} }) {
      switch (command as E2eCommand) {
        case 'idv-e2e:create-session':
          return (await backend()).createSession(payload.body ?? {});
        case 'idv-e2e:session':
          return (await backend()).getSession(required(payload.session_id, 'session_id'));
        case 'idv-e2e:result':
          return (await backend()).result(required(payload.session_id, 'session_id'));
        case 'idv-e2e:evidence':
          return (await backend()).evidence(required(payload.session_id, 'session_id'));
        case 'idv-e2e:simulate':
          return (await backend()).simulate(
            required(payload.session_id, 'session_id'),
            required(payload.action, 'action'),
          );
        case 'idv-e2e:new-verify-url':
          return (await backend()).newVerifyUrl(required(payload.session_id, 'session_id'));
        default:
          // Not ours: web-test-runner asks the next plugin.
          return undefined;
      }
    },

    async serverStop() {
      if (!server) return;
      const running = await server.catch(() => null);
      server = null;
      await running?.close();
    },
  };
}
