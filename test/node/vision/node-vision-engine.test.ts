import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { compareEmbeddings } from '../../../server/domain/face-embedding.ts';
import { faceMatchZone } from '../../../server/domain/face-match-zones.ts';
import { adjustedDistance, predictedNeighbourDistance } from '../../../server/domain/face-neighbourhood.ts';
import { parseMrz } from '../../../server/domain/mrz.ts';
import { UnprocessableImageError } from '../../../server/features/evidence/image-analyzer.ts';
import { ConfigError, loadConfig } from '../../../server/runtime/node/config.ts';
import {
  createNodeVisionEngine,
  VisionEngineBusyError,
} from '../../../server/runtime/node/vision/node-vision-engine.ts';
import type { FaceAnalysis, VisionEngine } from '../../../server/features/vision/vision-engine.ts';
import { DLIB_RESNET_SPACE } from '../../../server/runtime/node/vision/face-models.ts';
import { loadDocumentManifest } from '../../fixtures/vision/documents/manifest.ts';

const FIXTURES = new URL('../../fixtures/vision/', import.meta.url);
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(path, FIXTURES)));

/** The only face of an analysis, asserting there is exactly one. */
function onlyFace(analysis: FaceAnalysis) {
  assert.equal(analysis.faces.length, 1, `expected one face, found ${analysis.faces.length}`);
  return analysis.faces[0] as NonNullable<(typeof analysis.faces)[0]>;
}

// The models load once for this whole file (several seconds); every test shares the one engine.
describe('Node vision engine with its real models', () => {
  let vision: VisionEngine;
  before(() => {
    vision = createNodeVisionEngine({ threads: 1 });
  });
  after(() => vision.close());

  it("finds the astronaut's face with an embedding, eyes open and smiling", async () => {
    const analysis = await vision.analyzeFaces(fixture('portraits/astronaut.jpg'), { embeddings: true });
    const face = onlyFace(analysis);
    const { neighbourhood, ...space } = analysis.embeddingSpace ?? {};
    assert.deepEqual(space, {
      name: 'dlib-resnet-v1-chip',
      metric: 'euclidean',
      threshold: 0.6,
      zones: { match: 0.53, mismatch: 0.62 },
      qualityFloors: { sharpness: 0.014, eyes: 0.338 },
    });
    // The neighbourhood model fits the embedder's 128 numbers, and this portrait's prediction is in range.
    assert.equal(neighbourhood?.weights.length, 128);
    const predicted = predictedNeighbourDistance(face.embedding ?? [], neighbourhood!);
    assert.ok(predicted !== null && predicted >= neighbourhood!.min && predicted <= neighbourhood!.max);
    // A clear, frontal studio portrait: above both quality floors, so its face match can decide.
    const floors = analysis.embeddingSpace!.qualityFloors!;
    assert.ok(face.quality, 'the face carries its quality measures');
    assert.ok(face.quality.sharpness > floors.sharpness, `sharpness ${face.quality.sharpness}`);
    assert.ok(face.quality.eyes > floors.eyes, `eyes ${face.quality.eyes}`);
    assert.equal(analysis.engine.kind, 'models');
    assert.ok(analysis.engine.models.some((model) => model.startsWith('dlib-resnet-v1@')));
    assert.equal(face.embedding?.length, 128);
    assert.ok(face.score > 0.7, `detector score ${face.score}`);
    // The box lies inside the image and is a plausible face size for a head-and-shoulders portrait.
    assert.ok(face.box.x >= 0 && face.box.y >= 0 && face.box.x + face.box.width <= analysis.width);
    assert.ok(face.box.width > analysis.width * 0.15 && face.box.width < analysis.width * 0.6);
    assert.ok(Math.abs(face.yaw) < 10, `frontal portrait, yaw ${face.yaw}`);
    assert.ok(
      face.leftEyeOpen > 0.8 && face.rightEyeOpen > 0.8,
      `eyes ${face.leftEyeOpen}/${face.rightEyeOpen}`,
    );
    assert.ok(face.smile > 0.5, `smile ${face.smile}`);
  });

  it("reads yaw with the seam's sign: the camera man turned to his own left, his mirror image to his right", async () => {
    const photo = fixture('portraits/camera.jpg');
    const mirrored = new Uint8Array(await sharp(photo).flop().jpeg().toBuffer());
    const turned = onlyFace(await vision.analyzeFaces(photo));
    const flipped = onlyFace(await vision.analyzeFaces(mirrored));
    // He looks into a viewfinder on the right of the picture: his own left.
    assert.ok(turned.yaw < -15, `yaw ${turned.yaw}`);
    assert.ok(flipped.yaw > 15, `mirrored yaw ${flipped.yaw}`);
    assert.ok(Math.abs(turned.yaw + flipped.yaw) < 10, 'a mirror image turns as far the other way');
    assert.equal(turned.embedding, undefined, 'no embedding unless asked for');
  });

  it('finds no face on a cat or on a coffee cup', async () => {
    for (const scene of ['selfies/sources/cat.jpg', 'selfies/sources/desk.jpg']) {
      const analysis = await vision.analyzeFaces(fixture(scene), { embeddings: true });
      assert.equal(analysis.faces.length, 0, scene);
    }
  });

  it('tells two people apart and recognises the same face after blurring and downscaling', async () => {
    const astronaut = fixture('portraits/astronaut.jpg');
    const degraded = new Uint8Array(
      await sharp(astronaut).resize(256).blur(1.2).jpeg({ quality: 60 }).toBuffer(),
    );
    const embedding = async (bytes: Uint8Array) =>
      onlyFace(await vision.analyzeFaces(bytes, { embeddings: true })).embedding as readonly number[];
    const space = DLIB_RESNET_SPACE;
    const reference = await embedding(astronaut);
    // As the face-match check scores a pair: the distance, adjusted for both faces' neighbourhoods.
    const score = (probe: readonly number[]) => {
      const distance = compareEmbeddings(reference, probe, space)?.score;
      return distance === undefined
        ? Number.NaN
        : (adjustedDistance(distance, reference, probe, space) ?? Number.NaN);
    };
    const same = score(await embedding(degraded));
    const other = score(await embedding(fixture('portraits/camera.jpg')));
    assert.equal(faceMatchZone(same, space), 'match', `degraded copy: ${same}`);
    assert.equal(faceMatchZone(other, space), 'mismatch', `camera man: ${other}`);
  });

  it('reads the machine-readable zone of a passport and of an ID card back exactly', async () => {
    const { images } = loadDocumentManifest();
    for (const file of ['passport-astronaut.jpg', 'id_card-back-astronaut.jpg']) {
      const label = images.find((image) => image.file === file);
      assert.ok(label?.mrz_lines && label.side, `${file} is in the manifest with its zone`);
      const reading = await vision.readDocument(fixture(`documents/${file}`), {
        documentType: label.document_type,
        side: label.side,
      });
      assert.ok(reading.mrz, `${file}: a zone was found`);
      assert.deepEqual(reading.mrz.lines, label.mrz_lines, file);
      assert.ok(reading.mrz.confidence > 0.5, `${file} confidence ${reading.mrz.confidence}`);
      assert.equal(parseMrz(reading.mrz.lines.join('\n')).valid, true);
      assert.equal(reading.layout.found, true, `${file}: the card stands out from the background`);
      assert.ok(Math.abs(reading.layout.deskewDegrees) < 1, `${file} was photographed straight`);
    }
  });

  it('straightens a tilted passport, finds its portrait and counts the other lines of text', async () => {
    const reading = await vision.readDocument(
      fixture('documents/degraded/passport-astronaut--rotate_cw_7.jpg'),
      {
        documentType: 'passport',
        side: 'front',
      },
    );
    assert.ok(Math.abs(reading.layout.deskewDegrees + 7) <= 1, `deskew ${reading.layout.deskewDegrees}`);
    assert.ok(Math.abs(reading.layout.aspectRatio - 1.42) < 0.08, `aspect ${reading.layout.aspectRatio}`);
    assert.equal(reading.mrz?.lines.length, 2);
    assert.equal(reading.faces.faces.length >= 1, true, 'the portrait');
    assert.equal(reading.faces.faces[0]?.embedding?.length, 128);
    assert.ok(reading.textLineCount >= 8 && reading.textLineCount < 25, `text rows ${reading.textLineCount}`);
    assert.equal(reading.barcode, null, 'no barcode looked for on a passport');
  });

  it('reads the PDF417 barcode on the back of a driving licence', async () => {
    const label = loadDocumentManifest().images.find(
      (image) => image.file === 'driving_licence-back-astronaut.jpg',
    );
    assert.ok(label?.barcode);
    const reading = await vision.readDocument(fixture(`documents/${label.file}`), {
      documentType: 'driving_licence',
      side: 'back',
    });
    assert.deepEqual(reading.barcode, { format: 'PDF417', text: label.barcode.text });
  });

  it('refuses bytes that are not an image as unprocessable, and keeps working afterwards', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const truncated = fixture('portraits/astronaut.jpg').slice(0, 2000);
    for (const bytes of [svg, truncated]) {
      await assert.rejects(vision.analyzeFaces(bytes), UnprocessableImageError);
    }
    await assert.rejects(
      vision.readDocument(svg, { documentType: 'passport', side: 'front' }),
      UnprocessableImageError,
    );
    await assert.rejects(vision.readText(svg), UnprocessableImageError);
    assert.equal((await vision.analyzeFaces(fixture('portraits/astronaut.jpg'))).faces.length, 1);
  });
});

// The pool's own behaviour, with a stand-in worker script instead of the models: first byte 1 makes the
// worker exit, 2 makes it spin forever (a model stuck in WebAssembly), anything else is answered.
describe('vision worker pool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idv-vision-pool-'));
  const workerUrl = pathToFileURL(join(dir, 'stand-in-worker.mjs'));
  writeFileSync(
    workerUrl,
    `process.on('disconnect', () => process.exit(0));
process.on('message', (request) => {
  const first = new Uint8Array(request.bytes)[0];
  if (first === 1) process.exit(3);
  if (first === 2) for (;;);
  if (first === 3) return process.send({ id: request.id, ok: false, error: { name: 'RangeError', message: 'model blew up' } });
  process.send({ id: request.id, ok: true, result: { kind: request.job.kind, length: request.bytes.byteLength } });
});`,
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers jobs, sends a copy of the bytes and leaves the caller its own', async () => {
    const engine = createNodeVisionEngine({ workerUrl });
    try {
      const bytes = new Uint8Array([9, 8, 7]);
      assert.deepEqual(await engine.readText(bytes), { kind: 'readText', length: 3 });
      assert.equal(bytes.byteLength, 3, 'the caller’s buffer is not detached');
      const answers = await Promise.all([0, 1, 2].map(() => engine.analyzeFaces(new Uint8Array([5]))));
      assert.equal(answers.length, 3);
    } finally {
      await engine.close();
    }
  });

  it('runs its workers at a lower CPU priority than the server, so requests win a busy core', async () => {
    const engine = createNodeVisionEngine({ workerUrl });
    try {
      await engine.readText(new Uint8Array([9]));
      const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
        .trim()
        .split(' ')
        .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('stand-in-worker'));
      assert.equal(children.length, 1);
      const own = getPriority();
      assert.equal(getPriority(Number(children[0])), Math.min(19, own + 10));
    } finally {
      await engine.close();
    }
  });

  it('rejects the job of a worker that crashes and replaces the worker', async () => {
    const engine = createNodeVisionEngine({ workerUrl });
    try {
      await assert.rejects(engine.readText(new Uint8Array([1])), /stopped unexpectedly \(exit code 3\)/);
      assert.deepEqual(await engine.readText(new Uint8Array([0])), { kind: 'readText', length: 1 });
    } finally {
      await engine.close();
    }
  });

  it('rejects a job that failed in the worker without losing the worker', async () => {
    const engine = createNodeVisionEngine({ workerUrl });
    try {
      await assert.rejects(engine.readText(new Uint8Array([3])), /RangeError.*model blew up/);
      assert.deepEqual(await engine.readText(new Uint8Array([0])), { kind: 'readText', length: 1 });
    } finally {
      await engine.close();
    }
  });

  it('gives up a job that overruns its time, replaces the worker, and runs the queue on', async () => {
    // Long enough for a worker process to start on a busy machine: the queued job's clock runs from then.
    const engine = createNodeVisionEngine({ workerUrl, jobTimeoutMs: 3000 });
    try {
      const stuck = engine.readText(new Uint8Array([2]));
      const queued = engine.readText(new Uint8Array([0, 0]));
      await assert.rejects(stuck, VisionEngineBusyError);
      assert.deepEqual(await queued, { kind: 'readText', length: 2 });
    } finally {
      await engine.close();
    }
  });

  it('refuses jobs beyond its queue, and every pending one on close', async () => {
    const engine = createNodeVisionEngine({ workerUrl, maxQueuedJobs: 1, jobTimeoutMs: 10_000 });
    const running = assert.rejects(engine.readText(new Uint8Array([2])), /closed/);
    const waiting = assert.rejects(engine.readText(new Uint8Array([0])), /closed/);
    await assert.rejects(engine.readText(new Uint8Array([0])), VisionEngineBusyError);
    await engine.close();
    await running;
    await waiting;
    await assert.rejects(engine.readText(new Uint8Array([0])), /closed/);
  });
});

describe('vision configuration', () => {
  it('runs one vision thread by default and can be switched off', () => {
    assert.deepEqual(loadConfig({}).vision, { enabled: true, threads: 1 });
    assert.deepEqual(loadConfig({ IDV_VISION: 'off', IDV_VISION_THREADS: '2' }).vision, {
      enabled: false,
      threads: 2,
    });
  });

  it('names a bad thread count or switch', () => {
    assert.throws(
      () => loadConfig({ IDV_VISION_THREADS: '0' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /IDV_VISION_THREADS/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ IDV_VISION: 'maybe' }), /IDV_VISION: must be on or off/);
  });
});
