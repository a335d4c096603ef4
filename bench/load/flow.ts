import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_FIXTURES_DIR } from '../../test/fixtures/vision/documents/manifest.ts';
import { SELFIE_FIXTURES_DIR } from '../../test/fixtures/vision/selfies/manifest.ts';

/** The steps of one end-user flow, in order; each is timed on its own. */
export const STEPS = [
  'create',
  'consent',
  'upload',
  'details',
  'challenge',
  'liveness',
  'complete',
  'decision',
  'webhook',
] as const;
export type Step = (typeof STEPS)[number];

/** Read once: the same small fixtures for every flow (the sandbox outcome is forced, see run.ts). */
const PASSPORT = readFileSync(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'));
const FRAMES = new Map<string, Buffer>();
function frame(action: string): Buffer {
  let bytes = FRAMES.get(action);
  if (!bytes) {
    bytes = readFileSync(join(SELFIE_FIXTURES_DIR, 'genuine-astronaut', `${action}.jpg`));
    FRAMES.set(action, bytes);
  }
  return bytes;
}

export class StepError extends Error {
  readonly step: Step;
  constructor(step: Step, message: string) {
    super(message);
    this.step = step;
  }
}

export interface FlowTarget {
  /** The instance for the next request: with two, requests alternate between them (no proxy). */
  baseUrl(): string;
  sandboxKey: string;
  /** Resolves when the receiver has the `session.approved` webhook of this session. */
  webhookOf(sessionId: string): Promise<void>;
}

/** Milliseconds per step of one finished flow. */
export type FlowTimings = Partial<Record<Step, number>>;

async function expectOk(step: Step, response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!response.ok) throw new StepError(step, `${response.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * One end-user flow over HTTP, as the widget and a tenant's server send it: create (API key, sandbox
 * outcome forced to approved), consent, passport upload, details, liveness challenge and frames,
 * complete; then the tenant polls the result until the automated review decides, and the webhook
 * receiver gets `session.approved`. `decision` and `webhook` are measured from the end of `complete`.
 */
export async function runFlow(target: FlowTarget, index: number): Promise<FlowTimings> {
  const timings: FlowTimings = {};
  const timed = async <T>(step: Step, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } catch (error) {
      throw error instanceof StepError ? error : new StepError(step, String(error));
    } finally {
      timings[step] = performance.now() - started;
    }
  };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${target.baseUrl()}${path}`, {
      ...init,
      headers: { 'x-api-key': target.sandboxKey, 'content-type': 'application/json' },
    });

  const created = await timed('create', async () =>
    expectOk(
      'create',
      await api('/v1/sessions', {
        method: 'POST',
        body: JSON.stringify({
          country: 'NLD',
          flow: 'user',
          tier: 'tier2',
          external_user_reference: `load-${process.pid}-${index}`,
          sandbox: { outcome: 'approved' },
        }),
      }),
    ),
  );
  const sessionId = String(created['session_id']);
  // Registered before anything can trigger it, so a fast delivery is not missed.
  const webhook = target.webhookOf(sessionId);
  webhook.catch(() => {});
  const token = String(created['verify_url']).split('/verify/')[1] as string;
  const verify = (path: string, init: RequestInit = {}) =>
    fetch(`${target.baseUrl()}${path}`, {
      ...init,
      headers: { 'x-verify-token': token, ...(init.headers as Record<string, string> | undefined) },
    });
  const json = { 'content-type': 'application/json' };

  await timed('consent', async () =>
    expectOk(
      'consent',
      await verify('/v1/verify/consent', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ accepted: true, consent_version: 'v1', locale: 'en' }),
      }),
    ),
  );
  const upload = await timed('upload', async () => {
    const form = new FormData();
    form.set('step', 'id_document');
    form.set('document_type', 'passport');
    form.set('issuing_country', 'NLD');
    form.set('side', 'front');
    form.set('image', new File([new Uint8Array(PASSPORT)], 'passport.jpg', { type: 'image/jpeg' }));
    return expectOk('upload', await verify('/v1/verify/documents', { method: 'POST', body: form }));
  });
  const reading = upload['reading'] as { details_required?: boolean } | undefined;
  if (reading?.details_required !== false) {
    await timed('details', async () =>
      expectOk(
        'details',
        await verify('/v1/verify/details', {
          method: 'PUT',
          headers: json,
          body: JSON.stringify({
            step: 'id_document',
            first_name: 'Ada',
            last_name: 'Load',
            date_of_birth: '1990-01-01',
            nationality: 'NLD',
            document_number: `L${String(index).padStart(8, '0')}`,
            expiry_date: '2034-01-01',
          }),
        }),
      ),
    );
  }
  const challenge = await timed('challenge', async () =>
    expectOk('challenge', await verify('/v1/verify/liveness/challenge', { method: 'POST' })),
  );
  await timed('liveness', async () => {
    const form = new FormData();
    form.set('challenge_id', String(challenge['challenge_id']));
    for (const action of challenge['actions'] as string[]) {
      form.append(
        'frames',
        new File([new Uint8Array(frame(action))], `${action}.jpg`, { type: 'image/jpeg' }),
      );
    }
    const answer = await expectOk(
      'liveness',
      await verify('/v1/verify/liveness', { method: 'POST', body: form }),
    );
    if (answer['status'] !== 'accepted')
      throw new StepError('liveness', `answered ${JSON.stringify(answer)}`);
  });
  await timed('complete', async () =>
    expectOk('complete', await verify('/v1/verify/complete', { method: 'POST' })),
  );
  const completedAt = performance.now();
  const deadline = completedAt + 60_000;
  for (;;) {
    const result = await expectOk('decision', await api(`/v1/sessions/${sessionId}/result`));
    if (result['decision'] && result['decision'] !== 'pending') {
      if (result['decision'] !== 'approved')
        throw new StepError('decision', `decided ${String(result['decision'])}, forced approved`);
      break;
    }
    if (performance.now() > deadline) throw new StepError('decision', 'no decision within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  timings.decision = performance.now() - completedAt;
  await Promise.race([
    webhook,
    new Promise((_, reject) =>
      setTimeout(() => reject(new StepError('webhook', 'no webhook within 60 s')), 60_000).unref(),
    ),
  ]);
  timings.webhook = performance.now() - completedAt;
  return timings;
}
