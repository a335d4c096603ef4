import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerifyApi } from '../../../src/api/verify-api.ts';

/** A fetch that records the Idempotency-Key of each request and answers like the upload endpoint. */
function recordingFetch() {
  const keys: (string | null)[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    keys.push(new Headers(init?.headers).get('idempotency-key'));
    return Response.json({ upload_id: 'upl_1', quality: { ok: true, issues: [] }, status: 'accepted' });
  };
  return { keys, fetch: fetch as typeof globalThis.fetch };
}

describe('the widget API client on a flaky network', () => {
  const upload = (image: Blob, side: 'front' | 'back' = 'front') => ({
    step: 'id_document' as const,
    document_type: 'id_card' as const,
    issuing_country: 'DEU',
    side,
    image,
  });

  it('sends a retried upload of the same capture with the same Idempotency-Key', async () => {
    const { keys, fetch } = recordingFetch();
    const api = new VerifyApi({ apiBase: 'https://verify.example', token: 't', fetch });
    const capture = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    await api.uploadDocument(upload(capture));
    await api.uploadDocument(upload(capture));
    assert.match(keys[0] ?? '', /^[0-9a-f]{32}$/);
    assert.equal(keys[1], keys[0]);
  });

  it('gives a new capture, or the same image used for another side, a new key', async () => {
    const { keys, fetch } = recordingFetch();
    const api = new VerifyApi({ apiBase: 'https://verify.example', token: 't', fetch });
    const first = new Blob([new Uint8Array([1])], { type: 'image/jpeg' });
    const second = new Blob([new Uint8Array([1])], { type: 'image/jpeg' });
    await api.uploadDocument(upload(first));
    await api.uploadDocument(upload(second));
    await api.uploadDocument(upload(first, 'back'));
    assert.equal(new Set(keys).size, 3);
  });

  it('keys liveness frames by capture and challenge', async () => {
    const { keys, fetch } = recordingFetch();
    const api = new VerifyApi({ apiBase: 'https://verify.example', token: 't', fetch });
    const frames = [new Blob([new Uint8Array([1])]), new Blob([new Uint8Array([2])])];
    await api.submitLiveness('lch_1', frames);
    await api.submitLiveness('lch_1', frames);
    await api.submitLiveness('lch_2', frames);
    assert.equal(keys[0], keys[1]);
    assert.notEqual(keys[2], keys[0]);
  });
});
