// How often one decision reads a session's evidence (issue 23): a real session walked over HTTP, decided by
// the real review on a database whose SQL client is wrapped to count the statements per table. The wrapper
// only counts: every statement still runs on the real database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, SqlClient } from '../../../server/store/sql-client.ts';
import { deterministicVision } from '../../../server/features/vision/deterministic-vision.ts';
import type { VisionEngine } from '../../../server/features/vision/vision-engine.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { result, worker } from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { createTestDatabase, testEngines } from '../support/test-database.ts';
import { documentJpeg, faceFrameJpeg } from './synthetic-images.ts';
import {
  annaMrz,
  createVerifySession,
  documentForm,
  framesForm,
  verifyCall,
} from '../verify/verify-support.ts';

/** The tables that hold a session's evidence. */
const EVIDENCE_TABLES = ['verify_uploads', 'document_readings', 'liveness_challenges', 'liveness_readings'];
type EvidenceTable = (typeof EVIDENCE_TABLES)[number];

/**
 * Counts the statements that read a session's own evidence rows, per table: `select … from <table>`,
 * leaving out counts (`count(*)`, the upload limit) and the duplicate look-ups, which read other
 * sessions' rows (`session_id <> $n`).
 */
class EvidenceReads {
  readonly counts = new Map<EvidenceTable, number>();
  counting = false;

  note(text: string): void {
    if (!this.counting) return;
    const sql = text.replace(/\s+/g, ' ').trim().toLowerCase();
    if (!sql.startsWith('select') || sql.includes('count(') || /session_id <>/.test(sql)) return;
    const table = /\bfrom (\w+)/.exec(sql)?.[1];
    if (table && EVIDENCE_TABLES.includes(table)) this.counts.set(table, (this.counts.get(table) ?? 0) + 1);
  }

  /** Counts the reads `work` makes. */
  async during(work: () => Promise<unknown>): Promise<Record<EvidenceTable, number>> {
    this.counts.clear();
    this.counting = true;
    try {
      await work();
    } finally {
      this.counting = false;
    }
    return Object.fromEntries(EVIDENCE_TABLES.map((table) => [table, this.counts.get(table) ?? 0]));
  }

  /** The database with every statement, in and out of transactions, noted before it runs. */
  wrap(db: Database): Database {
    const wrapClient = (client: SqlClient): SqlClient => ({
      query: (text, params) => {
        this.note(text);
        return client.query(text, params);
      },
      exec: (script) => client.exec(script),
      transaction: (work) => client.transaction((tx) => work(wrapClient(tx))),
    });
    return { ...wrapClient(db), engine: db.engine, close: () => db.close() };
  }
}

/** One person's sessions: the same passport under another reference would be a duplicate finding. */
const PERSON = 'anna-eriksson';

const ONCE_EACH = {
  verify_uploads: 1,
  document_readings: 1,
  liveness_challenges: 1,
  liveness_readings: 1,
};

/**
 * The deterministic stand-in (one face per frame, performing what was asked, one embedding for everyone),
 * with a passport MRZ on every identity document, so the details come off the document and the vault
 * takes them from there.
 */
function visionWithMrz(): VisionEngine {
  const base = deterministicVision(sharpImageAnalyzer());
  return {
    ...base,
    async readDocument(bytes, options) {
      const reading = await base.readDocument(bytes, options);
      return { ...reading, mrz: { lines: annaMrz().split('\n'), confidence: 0.95 } };
    },
  };
}

for (const engine of testEngines()) {
  describe(`evidence read once per decision (${engine})`, () => {
    let h: TestHarness;
    const reads = new EvidenceReads();
    let seed = 0;
    before(async () => {
      h = await createHarness(engine, { db: reads.wrap(await createTestDatabase(engine)) });
      h.deps.vision = visionWithMrz();
    });
    after(() => h.close());

    const key = () => h.tenant.sandboxKey;
    const call = (token: string, method: string, path: string, extra = {}) =>
      verifyCall(h, method, path, { token, ...extra });

    async function consent(token: string) {
      const response = await call(token, 'POST', '/v1/verify/consent', {
        body: { accepted: true, consent_version: 'v1' },
      });
      assert.equal(response.status, 200, await response.clone().text());
    }

    async function passport(token: string) {
      // A fresh photo per session: the same bytes twice are a duplicate finding of their own.
      const photo = await documentJpeg({ seed: 300 + ++seed });
      const response = await call(token, 'POST', '/v1/verify/documents', {
        form: documentForm(photo, { document_type: 'passport' }),
      });
      assert.equal(response.status, 201, await response.clone().text());
      return json(response);
    }

    async function liveness(token: string) {
      const challenge = await json(await call(token, 'POST', '/v1/verify/liveness/challenge'));
      // Fresh frames per attempt too: frames seen in another session are a duplicate finding.
      seed += 1;
      const frames = [
        await faceFrameJpeg(-0.12, 0, seed),
        await faceFrameJpeg(0.12, 0, seed),
        await faceFrameJpeg(0, -0.1, seed),
      ];
      const response = await call(token, 'POST', '/v1/verify/liveness', {
        form: framesForm(challenge['challenge_id'], frames),
      });
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal((await json(response))['status'], 'accepted');
    }

    async function complete(token: string) {
      const response = await call(token, 'POST', '/v1/verify/complete');
      assert.equal(response.status, 200, await response.clone().text());
    }

    /**
     * A tier2 session (consent, passport, selfie) walked by its end-user and submitted. Every session of
     * the file is the same person's (the same passport under another reference is a duplicate finding).
     */
    async function walked() {
      const { sessionId, token } = await createVerifySession(h, { external_user_reference: PERSON });
      await consent(token);
      await passport(token);
      await liveness(token);
      await complete(token);
      return sessionId;
    }

    async function faceReferenceOf(identityId: string) {
      const [row] = await h.deps.db.query<{ face_reference_enc: string | null }>(
        'select face_reference_enc from identities where id = $1',
        [identityId],
      );
      return row?.face_reference_enc ?? null;
    }

    it('an upload that completes the step lists the uploads once and the readings once', async () => {
      const { token } = await createVerifySession(h, { external_user_reference: PERSON });
      await consent(token);
      let body: Record<string, any> = {};
      const counted = await reads.during(async () => {
        body = await passport(token);
      });
      assert.equal(body['step_status'], 'completed', 'a passport whose MRZ checks out needs no typing');
      assert.equal(body['reading']?.details_required, false);
      assert.deepEqual(counted, {
        verify_uploads: 1,
        document_readings: 1,
        liveness_challenges: 0,
        liveness_readings: 0,
      });
    });

    it('the automated review and its approval read each evidence table once, and vault and enrol from that read', async () => {
      const sessionId = await walked();
      const counted = await reads.during(() => worker(h).runOnce());
      const outcome = await result(h, key(), sessionId);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      assert.deepEqual(counted, ONCE_EACH);
      // What that one read carried reached the identity: the details read off the MRZ, and the selfie.
      const identity = await json(
        await h.call('GET', `/v1/identities/${outcome['identity_id']}`, { key: key() }),
      );
      assert.equal(identity['attributes'].last_name, 'ERIKSSON');
      assert.equal(identity['attributes'].document.number, 'L898902C3');
      assert.equal(typeof (await faceReferenceOf(outcome['identity_id'])), 'string', 'face enrolled');
    });

    it('a person’s approval of a session in review reads each evidence table once', async () => {
      const sessionId = await walked();
      const reviewed = await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
        key: key(),
        body: { action: 'review' },
      });
      assert.equal(reviewed.status, 200, await reviewed.clone().text());
      assert.equal((await json(reviewed))['status'], 'review_required');
      const counted = await reads.during(async () => {
        const approved = await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
          key: key(),
          body: { action: 'approve' },
        });
        assert.equal(approved.status, 200, await approved.clone().text());
      });
      const outcome = await result(h, key(), sessionId);
      assert.equal(outcome['decision'], 'approved');
      assert.deepEqual(counted, ONCE_EACH);
      assert.equal(typeof (await faceReferenceOf(outcome['identity_id'])), 'string', 'face enrolled');
    });

    it('a biometric re-verification reads each evidence table once and compares with the enrolled face', async () => {
      const first = await walked();
      await worker(h).runOnce();
      const identityId = (await result(h, key(), first))['identity_id'];
      const enrolled = await faceReferenceOf(identityId);
      assert.equal(typeof enrolled, 'string');
      const created = await h.call('POST', `/v1/identities/${identityId}/reverification-requests`, {
        key: key(),
        body: { reason: 'New device', mode: 'biometric' },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const request = await json(created);
      const token = String(request['verify_url']).split('/verify/')[1] as string;
      await consent(token);
      await liveness(token);
      await complete(token);
      const counted = await reads.during(() => worker(h).runOnce());
      const outcome = await result(h, key(), request['session_id']);
      assert.equal(outcome['decision'], 'approved', JSON.stringify(outcome['checks']));
      assert.equal(outcome['identity_id'], identityId);
      const faceMatch = outcome['checks'].find((check: { type: string }) => check.type === 'face_match');
      assert.equal(faceMatch?.status, 'passed', JSON.stringify(faceMatch));
      assert.deepEqual(counted, ONCE_EACH);
    });
  });
}
