import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  challengesOf,
  fixtureFacePairs,
  selfieFaces,
  summarizeScores,
} from '../../../bench/accuracy/faces.ts';
import { LIVENESS_ACTIONS } from '../../../server/domain/liveness-challenge.ts';
import type { DocumentManifest } from '../../fixtures/vision/documents/manifest.ts';
import {
  ATTACK_KINDS,
  loadSelfieManifest,
  SELFIE_FIXTURES_DIR,
  type SelfieManifest,
} from '../../fixtures/vision/selfies/manifest.ts';

// No model runs here: the committed set's integrity and the bench's pure helpers.
describe('selfie fixtures (test/fixtures/vision/selfies)', () => {
  const manifest = loadSelfieManifest();

  it('has a genuine sequence per real person and every attack kind, each frame a 640×480 JPEG', async () => {
    const kinds = new Set(manifest.sequences.map((sequence) => sequence.kind));
    for (const kind of ['genuine', ...ATTACK_KINDS])
      assert.ok(kinds.has(kind as never), `no ${kind} sequence`);
    const people = manifest.sequences.filter((s) => s.kind === 'genuine').map((s) => s.person);
    assert.deepEqual(people.sort(), ['astronaut', 'camera']);
    const files = new Set(
      [...manifest.sequences.flatMap((s) => s.frames), ...manifest.camera].map((f) => f.file),
    );
    for (const file of files) {
      const metadata = await sharp(join(SELFIE_FIXTURES_DIR, file)).metadata();
      assert.deepEqual([metadata.format, metadata.width, metadata.height], ['jpeg', 640, 480], file);
    }
  });

  it('answers every action in each sequence, or says why it cannot', () => {
    for (const sequence of manifest.sequences) {
      const actions = new Set(sequence.frames.map((frame) => frame.action));
      assert.ok(actions.has('neutral'), `${sequence.id} has no neutral frame`);
      for (const action of LIVENESS_ACTIONS) {
        assert.ok(
          actions.has(action) || sequence.known_limits[action],
          `${sequence.id}: ${action} missing unexplained`,
        );
      }
    }
    assert.deepEqual(
      manifest.camera.map((frame) => frame.action),
      ['neutral', ...LIVENESS_ACTIONS],
    );
  });

  it('labels genuine frames with the pose rendered, kept apart from what was measured', () => {
    const astronaut = manifest.sequences.find((s) => s.id === 'genuine-astronaut');
    const turnLeft = astronaut?.frames.find((frame) => frame.action === 'turn_left');
    assert.ok(turnLeft?.pose && turnLeft.pose.yaw < 0, 'turn_left renders a negative yaw');
    const turnRight = astronaut?.frames.find((frame) => frame.action === 'turn_right');
    assert.ok(turnRight?.pose && turnRight.pose.yaw > 0, 'turn_right renders a positive yaw');
    for (const frame of astronaut?.frames ?? []) {
      assert.ok(frame.measured, `${frame.file} is not measured`);
      assert.match(frame.transform, /JPEG q\d+/);
    }
  });

  it('never lets two frames of a genuine sequence be the same bytes', async () => {
    for (const sequence of manifest.sequences.filter((s) => s.kind === 'genuine')) {
      const hashes = await Promise.all(
        sequence.frames.map(async (frame) => {
          const { data } = await sharp(join(SELFIE_FIXTURES_DIR, frame.file))
            .raw()
            .toBuffer({ resolveWithObject: true });
          return Buffer.from(await crypto.subtle.digest('SHA-256', data)).toString('hex');
        }),
      );
      assert.equal(new Set(hashes).size, hashes.length, sequence.id);
    }
  });
});

describe('face bench helpers (bench/accuracy/faces.ts)', () => {
  it('draws every 3-action challenge the frames cover, in the server order', () => {
    assert.equal(challengesOf(LIVENESS_ACTIONS).length, 10);
    assert.deepEqual(challengesOf(['blink', 'turn_left', 'smile']), [['turn_left', 'smile', 'blink']]);
    assert.deepEqual(challengesOf(['blink', 'smile']), []);
  });

  it('summarises scores with quantiles', () => {
    assert.deepEqual(summarizeScores([0.5, 0.1, 0.3]), {
      count: 3,
      min: 0.1,
      p25: 0.2,
      median: 0.3,
      p75: 0.4,
      max: 0.5,
      mean: 0.3,
    });
    assert.equal(summarizeScores([]), null);
  });

  it('pairs frames and portraits: same person within one, different across, never two drawings', () => {
    const frame = (file: string, action: 'neutral' | 'smile') => ({
      file,
      action,
      transform: '',
      pose: null,
      capture: {
        offset_x: 0,
        offset_y: 0,
        gain: 1,
        offset: 0,
        tint: [1, 1, 1] as [number, number, number],
        jpeg_quality: 90,
      },
      measured: null,
    });
    const selfies: SelfieManifest = {
      description: '',
      measured_with: null,
      camera: [],
      sequences: [
        {
          id: 'g-a',
          kind: 'genuine',
          person: 'astronaut',
          claimed_person: 'astronaut',
          description: '',
          known_limits: {},
          frames: [frame('a1.jpg', 'neutral'), frame('a2.jpg', 'smile')],
        },
        {
          id: 'g-c',
          kind: 'genuine',
          person: 'camera',
          claimed_person: 'camera',
          description: '',
          known_limits: {},
          frames: [frame('c1.jpg', 'neutral')],
        },
        {
          id: 'x',
          kind: 'cartoon',
          person: 'cartoon',
          claimed_person: 'astronaut',
          description: '',
          known_limits: {},
          frames: [frame('x1.jpg', 'neutral'), frame('x2.jpg', 'smile')],
        },
        // A replay reuses the astronaut's photo: not a separate face image.
        {
          id: 'r',
          kind: 'replayed_still',
          person: 'astronaut',
          claimed_person: 'astronaut',
          description: '',
          known_limits: {},
          frames: [frame('r1.jpg', 'neutral')],
        },
      ],
    };
    const documents = {
      images: [
        {
          file: 'passport-astronaut.jpg',
          document_type: 'passport',
          side: 'front',
          person: 'astronaut',
          degradation: null,
        },
        {
          file: 'degraded/passport-astronaut--jpeg_q30.jpg',
          document_type: 'passport',
          side: 'front',
          person: 'astronaut',
          degradation: 'jpeg_q30',
        },
        {
          file: 'id_card-back-astronaut.jpg',
          document_type: 'id_card',
          side: 'back',
          person: null,
          degradation: null,
        },
      ],
    } as unknown as DocumentManifest;

    assert.deepEqual(
      selfieFaces(selfies, '/s').map((image) => image.label),
      ['a1.jpg', 'a2.jpg', 'c1.jpg', 'x1.jpg', 'x2.jpg'],
    );
    const pairs = fixtureFacePairs(selfies, documents, { selfies: '/s', documents: '/d' });
    const described = pairs.map((pair) => `${pair.a.label}|${pair.b.label}|${pair.same}|${pair.kind}`);
    assert.ok(described.includes('a1.jpg|a2.jpg|true|selfie–selfie'));
    assert.ok(described.includes('a1.jpg|c1.jpg|false|selfie–selfie'));
    assert.ok(described.includes('a1.jpg|passport-astronaut.jpg|true|document–selfie'));
    assert.ok(described.includes('c1.jpg|passport-astronaut.jpg|false|document–selfie'));
    assert.ok(described.includes('x1.jpg|passport-astronaut.jpg|false|cartoon'));
    assert.ok(!described.some((d) => d.startsWith('x1.jpg|x2.jpg')), 'two drawings are not a pair');
    assert.ok(
      !described.some((d) => d.includes('degraded/') || d.includes('back')),
      'only clean fronts are portraits',
    );
    const passport = pairs.find((pair) => pair.b.label === 'passport-astronaut.jpg')!.b;
    assert.deepEqual(passport.source, { kind: 'document', documentType: 'passport', side: 'front' });
    assert.equal(passport.path, join('/d', 'passport-astronaut.jpg'));
    assert.ok(existsSync(SELFIE_FIXTURES_DIR));
  });
});
