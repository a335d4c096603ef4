import type { OpenAPIHono } from '@hono/zod-openapi';
import { createRoute, type RouteHandler, z } from '@hono/zod-openapi';
import { LIVENESS_ACTION_COUNT, LIVENESS_ACTIONS } from '../../domain/liveness-challenge.ts';
import { evidenceServices } from '../../features/evidence/evidence-services.ts';
import { type ImageAnalysis, UnprocessableImageError } from '../../features/evidence/image-analyzer.ts';
import {
  judgeLivenessAttempt,
  LIVENESS_RETRY_REASONS,
  type LivenessAttemptVerdict,
  livenessRetryMessage,
} from '../../features/evidence/liveness-attempt.ts';
import { storeLivenessReadings } from '../../features/evidence/liveness-evidence.ts';
import { assessQuality, type QualityIssue } from '../../features/evidence/quality.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import type { AppEnv } from '../app-env.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import {
  answerLivenessChallenge,
  findLivenessChallenge,
  findLivenessChallengeForUpdate,
} from '../../store/liveness-challenges.ts';
import { insertUpload } from '../../store/uploads.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import {
  formFile,
  formText,
  MAX_IMAGE_BYTES,
  MULTIPART_OVERHEAD_BYTES,
  multipartHook,
} from '../multipart.ts';
import {
  CAPTURE_QUALITY_REASON,
  livenessCaptureIssues,
} from '../../features/verify/liveness-capture-gate.ts';
import { stepOf } from '../../features/verify/step-progress.ts';
import { discardImageBytes, storeImageBytes } from '../../features/verify/store-image.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { verifyForm } from '../verify-form.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { recordStepOutcome, withWritableSession } from '../../features/verify/writable-session.ts';

/** One spare part beyond the expected frames, so a wrong count is answered as a retry, not a 413. */
const MAX_FRAMES_READ = LIVENESS_ACTION_COUNT + 1;
const FRAMES_FORM_LIMITS = {
  bodyBytes: MAX_FRAMES_READ * MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES,
  fileBytes: MAX_IMAGE_BYTES,
};

/** Retry reasons that were no judged try, so they cost no attempt: the frames were unfit to judge. */
const FREE_RETRY_REASONS: ReadonlySet<string> = new Set([CAPTURE_QUALITY_REASON, 'frame_undecodable']);

const LivenessResultSchema = z
  .object({
    object: z.literal('liveness_attempt'),
    status: z.enum(['accepted', 'retry']),
    attempts_remaining: z.number().int(),
    reason: z
      .enum([...LIVENESS_RETRY_REASONS, CAPTURE_QUALITY_REASON])
      .optional()
      .openapi({
        description:
          'With `retry`: why the attempt was sent back, for a client to word in its own language. `capture_quality` (see `quality_issues`) and `frame_undecodable` cost no attempt.',
      }),
    quality_issues: z
      .array(z.enum(['too_small', 'too_dark', 'blurry']))
      .optional()
      .openapi({
        description: 'With `capture_quality`: what to fix (light, stillness, camera) before trying again.',
      }),
    action: z.enum(LIVENESS_ACTIONS).optional().openapi({
      description: 'With `action_not_performed`: the action that was not seen.',
    }),
    user_message: z.string().optional().openapi({ description: 'With `retry`: the advice, in English.' }),
    session_status: z.enum(SESSION_STATUSES),
  })
  .openapi('VerifyLivenessAttempt');

/** The answer's form, as documented and as validated (multipartHook turns its first problem into the 400). */
const FramesForm = z.strictObject({
  challenge_id: formText(z.string()),
  // The form validator gives a part sent once as its value, one sent more often as a list.
  frames: z
    .preprocess(
      (parts) => (parts === undefined || Array.isArray(parts) ? parts : [parts]),
      z.array(formFile('Each `frames` part must be a picture.')),
    )
    .openapi({ description: 'One per action, in order.' }),
});

export const verifyLivenessRoute = createRoute({
  operationId: 'submitLivenessFrames',
  method: 'post',
  path: '/v1/verify/liveness',
  tags: ['End-user'],
  summary: 'Answer a liveness challenge',
  description:
    'multipart/form-data: `challenge_id` and one `frames` part per action, in the challenge’s order (JPEG, PNG or WebP, ≤ 10 MB each). The frames must arrive before the challenge expires, decode, and differ from one another (perceptual hash); then the face models judge each frame: exactly one face, the same person in every frame, each action performed. Otherwise the answer is `retry` with a `reason` code (and, for `action_not_performed`, the `action` not seen) and an English `user_message` saying what to do, and the attempt is used. Frames unfit to judge are refused first and cost no attempt: too dark, blurry or too small (`capture_quality`, with `quality_issues`; nothing is kept) or undecodable (`frame_undecodable`). Each challenge is answered once.',
  security: VERIFY_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: FramesForm,
        },
      },
    },
  },
  responses: {
    200: { description: 'The verdict', content: { 'application/json': { schema: LivenessResultSchema } } },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'payload_too_large',
      'resource_missing',
      'steps_incomplete',
      'invalid_state_transition',
      'service_unavailable',
    ),
  },
});

const CAPTURE_MESSAGES: Readonly<Record<QualityIssue, string>> = {
  too_small: 'The camera picture is too small. Use a better camera, or continue on your phone.',
  too_dark: 'It is too dark to see your face. Move somewhere brighter and try again.',
  blurry: 'The pictures are blurry. Hold the camera steady and try again.',
  glare: 'Bright light hides your face. Turn away from the light and try again.',
  no_document: 'We could not see your face. Keep your whole face in the frame and try again.',
};

/** What a capture refusal answers: the reason, what to fix, and the English advice for the first issue. */
function captureFields(issues: readonly QualityIssue[]) {
  return {
    reason: CAPTURE_QUALITY_REASON,
    quality_issues: issues,
    user_message: CAPTURE_MESSAGES[issues[0] ?? 'blurry'],
  };
}

/** What a retry answer adds: the reason code (and the action not seen) beside the English advice. */
function retryFields(verdict: LivenessAttemptVerdict) {
  if (verdict.status !== 'retry' || verdict.reason === null) return {};
  return {
    reason: verdict.reason,
    ...(verdict.reason === 'action_not_performed' && verdict.action ? { action: verdict.action } : {}),
    user_message: livenessRetryMessage(verdict),
  };
}

/** A measure for the log, to two decimals (null when the frame had none). */
function roundedMeasure(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : Math.round(value * 100) / 100;
}

export function registerVerifyLiveness(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  // The kit's middleware reads the form, its size capped while it streams; FramesForm validates it.
  const route = { ...verifyLivenessRoute, middleware: verifyKit(app, kit).multipart(FRAMES_FORM_LIMITS) };
  const submitFrames: RouteHandler<typeof route, AppEnv> = async (c) => {
    const caller = verifyCaller(c);
    const { images, blobs } = evidenceServices(deps);
    const { challenge_id: challengeId, frames: files } = c.req.valid('form');
    // When the frames started to arrive (the middleware's read): the challenge's deadline is judged on
    // that, not on upload speed.
    const { startedAt: receivedAt } = await verifyForm(c, FRAMES_FORM_LIMITS, deps.clock);
    if (files.some((file) => file.size > MAX_IMAGE_BYTES)) {
      throw verifyError('payload_too_large', 'A picture is too large. Pictures may be at most 10 MB.', {
        param: 'frames',
      });
    }
    const frames = await Promise.all(files.map(async (file) => new Uint8Array(await file.arrayBuffer())));
    // Undecodable frames are part of the verdict (a retry), not a request error.
    const analyses = await Promise.all(
      frames.map((bytes) =>
        images.analyze(bytes).catch((error: unknown): ImageAnalysis | null => {
          if (error instanceof UnprocessableImageError) return null;
          throw error;
        }),
      ),
    );
    // Judged before the write transaction: the models take a fraction of a second per frame and no lock
    // may wait on them. The unlocked read only tells whether the challenge is open and what it asked; the
    // locked read below still decides whether this is its first answer (and every error the caller sees).
    const scope = { tenantId: caller.session.tenant_id, environment: caller.session.environment };
    const open = await findLivenessChallenge(deps.db, scope, caller.session.id, challengeId);
    // Frames too dark, blurry or small to judge are refused before any model runs and kept nowhere.
    const captureIssues = livenessCaptureIssues(analyses);
    const judgeable =
      open && open.answered_at === null && stepOf(caller.session.steps, 'liveness')?.status === 'pending';
    const verdict =
      judgeable && captureIssues.length === 0
        ? await judgeLivenessAttempt(
            deps.vision,
            { actions: open.actions, expiresAt: open.expires_at },
            frames,
            analyses,
            receivedAt,
          )
        : null;
    if (verdict?.judgement) {
      deps.logger?.info('liveness judged', {
        session_id: caller.session.id,
        accepted: verdict.judgement.accepted,
        failure: verdict.judgement.failure,
        // Each action's outcome with the head pose, eyes and smile it was judged on (numbers, no image and
        // nothing that identifies anyone): why a genuine attempt was refused, against which bar.
        actions: verdict.judgement.actions.map(({ action, outcome, measured }) => ({
          action,
          outcome,
          ...Object.fromEntries(
            ['yaw', 'pitch', 'eyes_open', 'smile'].map((key) => [key, roundedMeasure(measured[key])]),
          ),
        })),
        frame_ms: verdict.durationsMs,
      });
    } else if (verdict?.status === 'retry') {
      // Sent back by a gate before the models (expired, repeated or undecodable frames): an operator
      // asking why a genuine person ran out of attempts needs the reason, which carries nothing personal.
      deps.logger?.info('liveness sent back', { session_id: caller.session.id, reason: verdict.reason });
    }
    const refusedForCapture = judgeable && captureIssues.length > 0;
    const decodable = refusedForCapture
      ? []
      : frames.flatMap((bytes, index) => (analyses[index] ? [{ bytes, index }] : []));
    const stored = await Promise.all(
      decodable.map(async ({ bytes, index }) => ({
        index,
        ...(await storeImageBytes(deps, blobs, caller.session, bytes)),
      })),
    );

    const answerOf = (outcome: { session: SessionRow; verdict: LivenessAttemptVerdict | null }) => {
      const progress = stepOf(outcome.session.steps, 'liveness');
      return {
        object: 'liveness_attempt' as const,
        status: outcome.verdict?.status ?? ('retry' as const),
        attempts_remaining: progress?.attempts_remaining ?? 0,
        ...(outcome.verdict ? retryFields(outcome.verdict) : captureFields(captureIssues)),
        session_status: outcome.session.status,
      };
    };
    // The answer is stored with the judgement: a retry after a crash replays it, not "already sent".
    const sealed = async <T extends Parameters<typeof answerOf>[0]>(tx: SqlClient, outcome: T) => {
      await answerInTransaction(c, tx, 200, answerOf(outcome));
      return outcome;
    };
    try {
      const outcome = await withWritableSession(
        deps,
        caller.session,
        { needs: ['consent'] },
        async (tx, locked) => {
          if (stepOf(locked.steps, 'liveness')?.status !== 'pending') {
            throw verifyError('invalid_state_transition', 'The selfie check is not open.');
          }
          const challenge = await findLivenessChallengeForUpdate(
            tx,
            { tenantId: locked.tenant_id, environment: locked.environment },
            locked.id,
            challengeId,
          );
          if (!challenge) {
            throw verifyError(
              'resource_missing',
              'This selfie check was not started here. Please start again.',
              {
                param: 'challenge_id',
              },
            );
          }
          if (challenge.answered_at !== null) {
            throw verifyError(
              'invalid_state_transition',
              'This selfie check was already sent. Please start a new one.',
              {
                param: 'challenge_id',
              },
            );
          }
          if (refusedForCapture) {
            await answerLivenessChallenge(tx, challenge.id, 'retry', CAPTURE_QUALITY_REASON, receivedAt);
            const session = await recordStepOutcome(tx, deps, locked, 'liveness', 'pending');
            return sealed(tx, { session, verdict: null });
          }
          // The step reopened (a resubmission) between the unlocked read and this one: nothing was judged.
          if (!verdict) {
            throw verifyError(
              'invalid_state_transition',
              'This selfie check changed while it was being sent. Please start a new one.',
              { param: 'challenge_id' },
            );
          }
          for (const frame of stored) {
            const analysis = analyses[frame.index] as ImageAnalysis;
            const quality = assessQuality(analysis, 'selfie');
            await insertUpload(tx, {
              id: frame.id,
              tenant_id: locked.tenant_id,
              environment: locked.environment,
              session_id: locked.id,
              kind: 'liveness_frame',
              step: 'liveness',
              document_type: null,
              side: null,
              issuing_country_enc: null,
              liveness_challenge_id: challenge.id,
              frame_index: frame.index,
              content_type: analysis.format,
              byte_size: frames[frame.index]?.length ?? 0,
              width: analysis.width,
              height: analysis.height,
              quality: {
                ok: quality.ok,
                issues: quality.issues,
                sharpness: analysis.sharpness,
                glare_ratio: analysis.glareRatio,
                brightness: analysis.brightness,
              },
              sha256_index: frame.digest,
              blob_key: frame.blobKey,
              created_at: receivedAt,
            });
          }
          await storeLivenessReadings(tx, deps, challenge, verdict.analyses, receivedAt);
          await answerLivenessChallenge(
            tx,
            challenge.id,
            verdict.status,
            verdict.reason,
            receivedAt,
            verdict.judgement,
          );
          const outcome =
            verdict.status === 'accepted'
              ? 'completed'
              : verdict.reason !== null && FREE_RETRY_REASONS.has(verdict.reason)
                ? 'pending'
                : 'failed_attempt';
          const session = await recordStepOutcome(tx, deps, locked, 'liveness', outcome);
          return sealed(tx, { session, verdict });
        },
      );
      return c.json(answerOf(outcome), 200);
    } catch (error) {
      await discardImageBytes(
        blobs,
        stored.map((frame) => frame.blobKey),
      );
      throw error;
    }
  };
  app.openapi(route, submitFrames, multipartHook());
}
