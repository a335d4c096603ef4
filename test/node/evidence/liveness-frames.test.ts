import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageAnalysis } from '../../../server/features/evidence/image-analyzer.ts';
import { evaluateLivenessFrames } from '../../../server/features/evidence/liveness-frames.ts';

const expiresAt = new Date('2030-01-01T12:02:00Z');
const challenge = { actions: ['turn_left', 'smile', 'look_up'], expiresAt };
const frame = (perceptualHash: string): ImageAnalysis => ({
  width: 640,
  height: 480,
  format: 'image/jpeg',
  sharpness: 120,
  glareRatio: 0,
  brightness: 140,
  perceptualHash,
});
const distinct = [frame('966996716896699e'), frame('2ad52ac1d72ad536'), frame('2fd0302ff07b2dd0')];
const inTime = new Date('2030-01-01T12:01:00Z');

describe('evaluateLivenessFrames', () => {
  it('accepts three distinct, decodable frames sent in time', () => {
    assert.deepEqual(evaluateLivenessFrames(challenge, distinct, inTime), { status: 'accepted' });
  });

  it('still accepts frames received exactly at the expiry, and refuses them a millisecond later', () => {
    assert.equal(evaluateLivenessFrames(challenge, distinct, expiresAt).status, 'accepted');
    assert.deepEqual(evaluateLivenessFrames(challenge, distinct, new Date(expiresAt.getTime() + 1)), {
      status: 'retry',
      reason: 'challenge_expired',
      frames: [],
    });
  });

  it('asks for a retry when the frame count differs from the number of actions', () => {
    for (const frames of [distinct.slice(0, 2), [...distinct, frame('0000000000000000')], []]) {
      assert.equal(evaluateLivenessFrames(challenge, frames, inTime).status, 'retry');
    }
  });

  it('names the frames that could not be decoded', () => {
    const verdict = evaluateLivenessFrames(challenge, [distinct[0]!, null, null], inTime);
    assert.deepEqual(verdict, { status: 'retry', reason: 'frame_undecodable', frames: [1, 2] });
  });

  it('refuses a replay: the same picture for two actions, even one bit apart', () => {
    const verdict = evaluateLivenessFrames(
      challenge,
      [distinct[0]!, distinct[1]!, frame('966996716896699f')],
      inTime,
    );
    assert.deepEqual(verdict, { status: 'retry', reason: 'frames_repeated', frames: [0, 2] });
  });
});
