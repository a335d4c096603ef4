import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  faceMatchZone,
  fuseProbeScores,
  probeWeight,
  zoneThresholds,
} from '../../../server/domain/face-match-zones.ts';
import { COSINE_SPACE, DLIB_SPACE, ZONED_DLIB_SPACE } from './vision-fixtures.ts';

describe('face-match zones (domain/face-match-zones.ts)', () => {
  it("takes the space's calibrated zones, or its published threshold as both", () => {
    assert.deepEqual(zoneThresholds(ZONED_DLIB_SPACE), { match: 0.55, mismatch: 0.62 });
    assert.deepEqual(zoneThresholds(DLIB_SPACE), { match: 0.6, mismatch: 0.6 });
    assert.equal(faceMatchZone(0.6, DLIB_SPACE), 'match');
    assert.equal(faceMatchZone(0.61, DLIB_SPACE), 'mismatch');
  });

  it('reads a distance the lower the closer, a similarity the higher the closer', () => {
    assert.equal(faceMatchZone(0.4, ZONED_DLIB_SPACE), 'match');
    assert.equal(faceMatchZone(0.6, ZONED_DLIB_SPACE), 'uncertain');
    assert.equal(faceMatchZone(0.7, ZONED_DLIB_SPACE), 'mismatch');
    const cosine = { ...COSINE_SPACE, zones: { match: 0.6, mismatch: 0.4 } };
    assert.equal(faceMatchZone(0.7, cosine), 'match');
    assert.equal(faceMatchZone(0.5, cosine), 'uncertain');
    assert.equal(faceMatchZone(0.3, cosine), 'mismatch');
  });

  it('weighs a probe by face size (full from 150 px) and pose, never to zero', () => {
    assert.equal(probeWeight({ score: 0, face_width: 300, pose: { yaw: 0, pitch: 0 } }), 1);
    assert.equal(probeWeight({ score: 0, face_width: 75 }), 0.5);
    const turned = probeWeight({ score: 0, face_width: 300, pose: { yaw: 60, pitch: 0 } });
    assert.ok(Math.abs(turned - 0.5) < 1e-9);
    assert.equal(probeWeight({ score: 0, face_width: 300, pose: { yaw: 90, pitch: 0 } }), 0.05);
  });

  it('fuses probes into their weighted mean score', () => {
    assert.equal(fuseProbeScores([]), null);
    const fused = fuseProbeScores([
      { score: 0.4, face_width: 300 },
      { score: 0.7, face_width: 75 },
    ]);
    assert.ok(Math.abs((fused as number) - 0.5) < 1e-9);
  });
});
