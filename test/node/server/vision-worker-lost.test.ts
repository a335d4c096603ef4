// Issue 24, item 9: a vision worker killed in the middle of a request (out of memory, V8 aborting, an
// operator's kill) answers 503 `service_unavailable` with `retry-after` and a problem document, and spends
// no attempt: the retry is judged as the first try would have been. The real engine and its real worker
// process (server/runtime/node/vision/vision-worker.ts), killed with SIGKILL while it works.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PROBLEM_CONTENT_TYPE } from '../../../server/errors/problem.ts';
import { createNodeVisionEngine } from '../../../server/runtime/node/vision/node-vision-engine.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  createConsentedSession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from '../verify/verify-support.ts';

/** This process's vision worker children (the engine forks them on its first job). */
function visionWorkerPids(): number[] {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim();
  if (!children) return [];
  return children
    .split(' ')
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('vision-worker.ts');
      } catch {
        return false; // gone meanwhile
      }
    });
}

/** SIGKILLs the vision worker as soon as it is there and has had `busyMs` to start on the job. */
async function killWorkerWhileBusy(busyMs: number): Promise<number> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    const [pid] = visionWorkerPids();
    if (pid !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, busyMs));
      process.kill(pid, 'SIGKILL');
      return pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no vision worker started');
}

async function assertUnavailable(response: Response): Promise<void> {
  const body = await json(response);
  assert.equal(response.status, 503, JSON.stringify(body));
  assert.equal(response.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
  assert.ok(Number(response.headers.get('retry-after')) >= 1, 'retry-after says when to come back');
  assert.equal(body['code'], 'service_unavailable');
  assert.equal(body['status'], 503);
  assert.equal(typeof body['user_message'], 'string');
  // The detail names what happened (for the developer); no path, stack or file name reaches the browser.
  assert.doesNotMatch(JSON.stringify(body), /\/work\/|\.ts\b|\bat /, 'no internals for the end-user');
}

for (const engine of testEngines()) {
  describe(`a vision worker killed mid-request (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    const vision = createNodeVisionEngine({ threads: 1 });
    before(async () => {
      h = await createHarness(engine);
      h.deps.vision = vision;
      images = await makeImages();
    });
    after(async () => {
      await vision.close();
      await h.close();
    });

    const stepOf = async (sessionId: string, step: string) => {
      const session = await json(
        await h.call('GET', `/v1/sessions/${sessionId}`, { key: h.tenant.sandboxKey }),
      );
      return session['steps'].find((s: { step: string }) => s.step === step);
    };

    it('answers a document upload 503 with retry-after, keeps nothing, and the retry is read', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const upload = () =>
        verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(images.front),
          headers: { 'idempotency-key': `doc-${sessionId}` },
        });
      const [response, killed] = await Promise.all([upload(), killWorkerWhileBusy(200)]);
      assert.ok(killed > 0);
      await assertUnavailable(response);
      const step = await stepOf(sessionId, 'id_document');
      assert.equal(step.attempts_remaining, 3, 'no attempt spent');
      const evidence = await json(
        await h.call('GET', `/v1/sessions/${sessionId}/evidence`, {
          token: await h.login(),
          headers: { 'x-environment': 'sandbox' },
        }),
      );
      assert.deepEqual(evidence['data'], [], 'nothing kept from the lost try');

      // The same request again (same Idempotency-Key): a new worker reads it.
      const retried = await upload();
      assert.equal(retried.status, 201, JSON.stringify(await json(retried.clone())));
      assert.equal((await json(retried))['attempts_remaining'], 3);
    });

    it('answers a liveness judgement 503 with retry-after, uses no attempt, and the challenge stays open', async () => {
      const { sessionId, token } = await createConsentedSession(h);
      const challenge = await json(await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }));
      const answer = () =>
        verifyCall(h, 'POST', '/v1/verify/liveness', {
          token,
          form: framesForm(challenge['challenge_id'], images.frames),
        });
      const [response] = await Promise.all([answer(), killWorkerWhileBusy(200)]);
      await assertUnavailable(response);
      assert.equal((await stepOf(sessionId, 'liveness')).attempts_remaining, 3, 'no attempt spent');

      const retried = await answer();
      assert.equal(retried.status, 200, JSON.stringify(await json(retried.clone())));
      const body = await json(retried);
      assert.notEqual(body['reason'], 'challenge_answered');
      assert.ok(body['attempts_remaining'] >= 2, 'the retry is the first judged try');
    });
  });
}
