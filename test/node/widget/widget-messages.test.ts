import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VerifyApiError } from '../../../src/api/verify-api-error.ts';
import { en, type Messages } from '../../../src/i18n/en.ts';
import { translator } from '../../../src/i18n/localize.ts';
import { fieldMessage, problemMessage, reasonMessage } from '../../../src/i18n/problem-message.ts';
import { LIVENESS_ACTIONS } from '../../../server/domain/liveness-challenge.ts';
import { REASON_CODES } from '../../../server/domain/review/reasons.ts';
import { LIVENESS_RETRY_REASONS } from '../../../server/features/evidence/liveness-attempt.ts';
import { livenessRetryText } from '../../../src/steps/liveness-retry-text.ts';

const localesDir = join(import.meta.dirname, '../../../src/i18n/locales');

async function messagesOf(locale: string): Promise<Messages> {
  return (await import(join(localesDir, `${locale}.ts`))).messages as Messages;
}

/**
 * Every problem code the end-user endpoints answer with (server/features/verify, server/http/routes/verify-*,
 * server/http for the shared ones): each must have the widget's own wording, not the server's English.
 */
const VERIFY_PROBLEM_CODES = [
  'authentication_required',
  'invalid_token',
  'tenant_suspended',
  'origin_not_allowed',
  'session_expired',
  'verify_token_expired',
  'invalid_state_transition',
  'steps_incomplete',
  'unsupported_media_type',
  'invalid_parameter',
  'missing_parameter',
  'unknown_parameter',
  'payload_too_large',
  'unprocessable_image',
  'document_type_mismatch',
  'upload_limit_reached',
  'resource_missing',
  'rate_limited',
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'insufficient_capability',
  'internal_error',
  'service_unavailable',
];

describe('widget messages', () => {
  it('words every problem code of the end-user endpoints itself, in the widget’s locale', async () => {
    const de = translator(await messagesOf('de'));
    const SERVER_TEXT = 'server text that must not be shown';
    for (const code of VERIFY_PROBLEM_CODES) {
      const message = problemMessage(new VerifyApiError(400, { code, user_message: SERVER_TEXT }), de);
      assert.notEqual(message, SERVER_TEXT, code);
      assert.ok(Object.values(await messagesOf('de')).includes(message), `${code}: ${message}`);
    }
    assert.equal(
      problemMessage(new VerifyApiError(400, { code: 'brand_new', user_message: 'As sent.' }), de),
      'As sent.',
    );
  });

  it('says what the photo looked like for document_type_mismatch', () => {
    const t = translator(en);
    const mismatch = (seen: string) =>
      problemMessage(new VerifyApiError(422, { code: 'document_type_mismatch', seen }), t);
    assert.equal(mismatch('selfie'), en.mismatchSelfie);
    assert.equal(mismatch('text_page'), en.mismatchTextPage);
    assert.equal(mismatch('other_document'), en.mismatchOtherDocument);
    assert.equal(mismatch('no_document'), en.mismatchNoDocument);
  });

  it('words every decision reason code, neutrally where the end-user must not learn the finding', () => {
    const t = translator(en);
    for (const code of REASON_CODES) {
      const text = reasonMessage({ code, user_message: 'server' }, t, 'Acme');
      assert.notEqual(text, 'server', code);
    }
    for (const code of ['watchlist_hit', 'duplicate_identity', 'face_mismatch', 'document_tampered']) {
      assert.equal(reasonMessage({ code }, t, 'Acme'), en.reasonNeutral.replace('{tenant}', 'Acme'), code);
    }
  });

  it('words every liveness retry reason and action the server sends, in the widget’s locale', async () => {
    const deMessages = await messagesOf('de');
    const de = translator(deMessages);
    const SERVER_TEXT = 'server text that must not be shown';
    const retry = { status: 'retry', attempts_remaining: 2, user_message: SERVER_TEXT } as const;
    for (const reason of LIVENESS_RETRY_REASONS) {
      const text = livenessRetryText({ ...retry, reason }, de);
      assert.ok(Object.values(deMessages).includes(text), `${reason}: ${text}`);
    }
    // The action is named with the prompt the end-user saw.
    const PROMPT_OF = {
      turn_left: 'actionTurnLeft',
      turn_right: 'actionTurnRight',
      look_up: 'actionLookUp',
      smile: 'actionSmile',
      blink: 'actionBlink',
    } as const satisfies Record<(typeof LIVENESS_ACTIONS)[number], keyof Messages>;
    for (const action of LIVENESS_ACTIONS) {
      assert.equal(
        livenessRetryText({ ...retry, reason: 'action_not_performed', action }, de),
        deMessages.livenessRetryAction.replace('{action}', deMessages[PROMPT_OF[action]]),
        action,
      );
    }
    assert.equal(livenessRetryText({ ...retry, reason: 'brand_new' }, de), SERVER_TEXT);
  });

  it('names the fix per field', () => {
    const t = translator(en);
    assert.equal(
      fieldMessage({ param: 'date_of_birth', code: 'invalid_parameter' }, t),
      en.fieldCheckDateOfBirth,
    );
    assert.equal(fieldMessage({ param: 'nationality', code: 'invalid_parameter' }, t), en.invalidCountryCode);
    assert.equal(fieldMessage({ param: 'first_name', code: 'missing_parameter' }, t), en.required);
    assert.equal(fieldMessage({ param: 'first_name', code: 'invalid_parameter' }, t), en.fieldInvalid);
  });
});
