// `node scripts/train-mrz-glyphs.ts [--zones=900] [--epochs=14] [--seed=7] [--small=1]`: trains the MRZ glyph
// classifier (server/runtime/node/vision/mrz-glyph-model.ts) and writes its weights to
// server/runtime/node/vision/mrz-glyph-weights.ts, or with `--small=1` the small-print classifier, for zones
// whose capitals are under 8 px in the photo, to mrz-glyph-weights-small.ts.
//
// The training data is made here and nowhere else: machine-readable zones of random text rendered with
// librsvg (through sharp) in OCR-B (Debian `fonts-ocr-b`) and four other monospace faces (`fonts-dejavu-core`,
// `fonts-liberation`, `fonts-noto-mono`, `fonts-urw-base35`), on pale guilloche-like backgrounds under
// distractor text, then degraded (rotation, scale down to 8 px capitals, blur, motion blur, noise, glare,
// dim light, JPEG). Each render goes through the engine's own zone finder and cell sampler
// (`mrz-zone.ts`, `mrz-cells.ts`), so the classifier learns from exactly the patches it will see; the
// labels are the rendered text. No evaluation image (test fixtures, bench corpora) is ever used.
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import type { RawImage } from '../server/runtime/node/vision/decode-upright.ts';
import { CELL_HEIGHT, CELL_WIDTH, cellPatch, lineGeometry } from '../server/runtime/node/vision/mrz-cells.ts';
import {
  type DenseLayer,
  encodeGlyphModel,
  forward,
  MRZ_ALPHABET,
} from '../server/runtime/node/vision/mrz-glyph-model.ts';
import { findMrzZone, MRZ_SHAPES } from '../server/runtime/node/vision/mrz-zone.ts';
import { resizeRaw } from '../server/runtime/node/vision/raw-image-ops.ts';
import { ENLARGED_LONG_SIDE, SMALL_LONG_SIDE } from '../server/runtime/node/vision/read-document.ts';
import { toGray } from '../server/runtime/node/vision/ink-components.ts';
import { inkOf } from '../server/runtime/node/vision/straighten-document.ts';
import { glyphCandidates, groupTextLines } from '../server/runtime/node/vision/text-lines.ts';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, Number(value)];
  }),
) as Record<string, number>;
const ZONES = args['zones'] ?? 900;
const EPOCHS = args['epochs'] ?? 14;
let seed = args['seed'] ?? 7;
/**
 * The small-print model: capitals of 5 to 9 px in the render (a TD3 line 250–370 px wide), blur and
 * motion scaled to that size, and its cells sampled as the reader samples a small photo's: on the render
 * as it is when the zone is found there, else on a copy enlarged as `read-document.ts` enlarges one.
 */
const SMALL = args['small'] === 1;

/** mulberry32: the same data and weights on every run with the same seed. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (low: number, high: number) => low + (high - low) * random();
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
function gaussian(): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Font, its capital height in em, and how often it is drawn. OCR-B is what ICAO prescribes. */
const FACES = [
  { family: 'OCR B', cap: 0.72, weight: 0.55 },
  { family: 'DejaVu Sans Mono', cap: 0.73, weight: 0.12 },
  { family: 'Liberation Mono', cap: 0.66, weight: 0.12 },
  { family: 'Noto Sans Mono', cap: 0.71, weight: 0.11 },
  { family: 'Nimbus Mono PS', cap: 0.58, weight: 0.1 },
] as const;
function pickFace() {
  let r = random();
  for (const face of FACES) {
    r -= face.weight;
    if (r <= 0) return face;
  }
  return FACES[0];
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
/** The look-alikes OCR-B readers confuse, drawn more often so the classifier learns their differences. */
const LOOK_ALIKES = '0OQD8B5S2Z1I7T4A6G';

/** A line of the zone: runs of letters, digits, mixed and fillers, as real zones have. */
function zoneLine(length: number): string {
  let line = '';
  while (line.length < length) {
    const kind = random();
    const run = 1 + Math.floor(random() * 9);
    for (let i = 0; i < run; i++) {
      if (kind < 0.3) line += pick([...LETTERS]);
      else if (kind < 0.55) line += pick([...DIGITS]);
      else if (kind < 0.65) line += pick([...LETTERS, ...DIGITS]);
      else if (kind < 0.78) line += pick([...LOOK_ALIKES]);
      else line += '<';
    }
  }
  return line.slice(0, length);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Pale security-print curves across the whole render. */
function guilloche(width: number, height: number): string {
  const paths: string[] = [];
  const families = 1 + Math.floor(random() * 3);
  for (let f = 0; f < families; f++) {
    const hue = Math.floor(random() * 360);
    const colour = `hsl(${hue},${Math.floor(between(20, 60))}%,${Math.floor(between(74, 92))}%)`;
    const curves = 4 + Math.floor(random() * 10);
    const period = between(40, 260);
    const amplitude = between(6, height / 3);
    for (let k = 0; k < curves; k++) {
      const phase = random() * Math.PI * 2;
      const base = random() * height;
      let d = '';
      for (let x = 0; x <= width; x += 8) {
        const y = base + amplitude * Math.sin((x / period) * Math.PI * 2 + phase);
        d += `${x === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
      }
      paths.push(
        `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${between(0.6, 2).toFixed(1)}"/>`,
      );
    }
  }
  return paths.join('');
}

interface Render {
  rgb: RawImage;
  lines: string[];
}

/** One zone rendered large (capitals ~40 px), then degraded as a phone or scanner would. */
async function renderZone(): Promise<Render> {
  const format = pick(['TD1', 'TD2', 'TD3', 'TD3'] as const);
  const shape = MRZ_SHAPES[format];
  const lines = Array.from({ length: shape.lines }, () => zoneLine(shape.length));
  const face = pickFace();
  const capital = 40;
  const pitch = capital * between(0.95, 1.2);
  const linePitch = capital * between(1.5, 3.2);
  const size = capital / face.cap;
  const margin = pitch * between(1.5, 4);
  const above = random() < 0.6 ? capital * between(2, 6) : 0;
  const width = Math.round(2 * margin + shape.length * pitch);
  const height = Math.round(above + 2 * margin + (shape.lines - 1) * linePitch + capital);
  const paper = `hsl(${Math.floor(random() * 360)},${Math.floor(between(0, 40))}%,${Math.floor(between(80, 98))}%)`;
  const ink = pick(['#111', '#1b1b1f', '#222', '#0d1a3a', '#333', '#2a2a30']);
  const bold = random() < 0.25 ? ` stroke="${ink}" stroke-width="${between(0.5, 2.5).toFixed(1)}"` : '';
  const parts = [`<rect width="100%" height="100%" fill="${paper}"/>`, guilloche(width, height)];
  if (above > 0) {
    // Printed text above the zone, proportional: the visual zone a finder must not take for the MRZ.
    const words = Array.from({ length: 6 }, () => zoneLine(4 + Math.floor(random() * 8)).replace(/</g, ' '));
    parts.push(
      `<text x="${margin}" y="${margin + capital}" font-family="DejaVu Sans" font-size="${size * 0.8}" fill="${ink}">${escapeXml(words.join(' '))}</text>`,
    );
  }
  lines.forEach((line, row) => {
    const y = above + margin + capital + row * linePitch;
    for (let i = 0; i < line.length; i++) {
      const x = margin + (i + 0.5) * pitch + gaussian() * 0.02 * pitch;
      parts.push(
        `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="${face.family}" font-size="${size.toFixed(1)}" fill="${ink}" text-anchor="middle"${bold}>${escapeXml(line[i] as string)}</text>`,
      );
    }
  });
  if (random() < 0.3) {
    // Glare: a soft white ellipse that washes out part of the zone (never wholly: labels must stay true).
    const gx = between(0, width);
    const gy = between(above, height);
    parts.push(
      `<defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="${between(0.3, 0.75).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${gx}" cy="${gy}" rx="${between(60, 400)}" ry="${between(30, 160)}" fill="url(#g)"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  // Capitals of 8 to 40 px: a 300 px wide TD3 line up to a close-up; 5 to 9 px for the small-print model.
  const targetCapital = SMALL ? between(5, 9) : random() < 0.5 ? between(8, 14) : between(14, 40);
  const scale = targetCapital / capital;
  let pipeline = sharp(Buffer.from(svg)).flatten({ background: '#fff' });
  const angle = random() < 0.6 ? between(-3, 3) : 0;
  if (angle !== 0) pipeline = pipeline.rotate(angle, { background: paper });
  let image = await pipeline.png().toBuffer();
  const meta = await sharp(image).metadata();
  let step = sharp(image).resize({ width: Math.max(40, Math.round((meta.width ?? width) * scale)) });
  const blur = random() < 0.5 ? (SMALL ? between(0.3, 0.9) : between(0.3, 1.6)) : 0;
  if (blur > 0) step = step.blur(blur);
  if (random() < 0.2) {
    // Horizontal motion blur: sharp's kernels are at least 3 × 3, so only the middle row is inked.
    const length = SMALL ? 3 : pick([3, 5]);
    const kernel = new Array(length * 3)
      .fill(0)
      .map((_, i) => (i >= length && i < 2 * length ? 1 / length : 0));
    step = step.convolve({ width: length, height: 3, kernel });
  }
  const brightness = random() < 0.25 ? between(0.35, 0.7) : between(0.85, 1.1);
  step = step.linear(brightness, between(-10, 10));
  image = await step.png().toBuffer();
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const noise = random() < 0.5 ? between(2, 16) : 0;
  if (noise > 0) {
    for (let i = 0; i < data.length; i += 3) {
      const n = gaussian() * noise;
      for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, (data[i + c] as number) + n));
    }
  }
  const quality = Math.round(between(25, 95));
  const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
  const decoded = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return {
    rgb: { data: decoded.data, width: decoded.info.width, height: decoded.info.height, channels: 3 },
    lines,
  };
}

interface Sample {
  patch: Float32Array;
  label: number;
}

function zoneOf(rgb: RawImage) {
  const ink = inkOf(rgb);
  return findMrzZone(groupTextLines(glyphCandidates(ink.components, ink.height)), ink);
}

/** The patches of one render as the engine samples them (plus jittered copies), or none if not found. */
async function samplesOf(render: Render, jitters: number): Promise<Sample[]> {
  let rgb = render.rgb;
  let zone = zoneOf(rgb);
  const longSide = Math.max(rgb.width, rgb.height);
  // As `read-document.ts` enlarges a small page whose zone it did not find at its own size.
  if (SMALL && (!zone || zone.upsideDown) && longSide < SMALL_LONG_SIDE) {
    rgb = await resizeRaw(rgb, Math.max(ENLARGED_LONG_SIDE, 2 * longSide), true);
    zone = zoneOf(rgb);
  }
  if (!zone || zone.lines.length !== render.lines.length || zone.upsideDown) return [];
  if (!zone.lines.every((line) => line.onLattice && line.cells.length === render.lines[0]?.length)) return [];
  const gray = toGray(rgb);
  const samples: Sample[] = [];
  for (const [index, line] of zone.lines.entries()) {
    const geometry = lineGeometry(line);
    const text = render.lines[index] as string;
    for (let k = 0; k < line.cells.length; k++) {
      const label = MRZ_ALPHABET.indexOf(text[k] as string);
      samples.push({ patch: cellPatch(gray, geometry, k), label });
      for (let j = 0; j < jitters; j++) {
        const jitter = { dx: gaussian() * 0.08, dy: gaussian() * 0.06, scale: 1 + gaussian() * 0.06 };
        samples.push({ patch: cellPatch(gray, geometry, k, jitter), label });
      }
    }
  }
  return samples;
}

function layer(inputs: number, outputs: number): DenseLayer {
  const weights = new Float32Array(inputs * outputs);
  const spread = Math.sqrt(2 / inputs);
  for (let i = 0; i < weights.length; i++) weights[i] = gaussian() * spread;
  return { inputs, outputs, weights, biases: new Float32Array(outputs) };
}

/** Mini-batch Adam on cross-entropy, with plain backpropagation through ReLU layers. */
function train(layers: DenseLayer[], data: Sample[], validation: Sample[]): void {
  const moments = layers.map((l) => ({
    mw: new Float32Array(l.weights.length),
    vw: new Float32Array(l.weights.length),
    mb: new Float32Array(l.outputs),
    vb: new Float32Array(l.outputs),
  }));
  const grads = layers.map((l) => ({
    w: new Float32Array(l.weights.length),
    b: new Float32Array(l.outputs),
  }));
  const batch = 64;
  let t = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const rate = 0.002 * 0.5 ** epoch;
    for (let i = data.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [data[i], data[j]] = [data[j] as Sample, data[i] as Sample];
    }
    let loss = 0;
    for (let start = 0; start < data.length; start += batch) {
      for (const g of grads) {
        g.w.fill(0);
        g.b.fill(0);
      }
      const end = Math.min(data.length, start + batch);
      for (let s = start; s < end; s++) {
        const sample = data[s] as Sample;
        const activations: Float32Array[] = [sample.patch];
        for (const [index, l] of layers.entries()) {
          const input = activations[index] as Float32Array;
          const out = new Float32Array(l.outputs);
          for (let o = 0; o < l.outputs; o++) {
            let sum = l.biases[o] as number;
            const row = o * l.inputs;
            for (let i = 0; i < l.inputs; i++) sum += (l.weights[row + i] as number) * (input[i] as number);
            out[o] = index < layers.length - 1 ? Math.max(0, sum) : sum;
          }
          activations.push(out);
        }
        const logits = activations[layers.length] as Float32Array;
        let max = Number.NEGATIVE_INFINITY;
        for (const v of logits) max = Math.max(max, v);
        let total = 0;
        const delta = new Float32Array(logits.length);
        for (let o = 0; o < logits.length; o++) {
          delta[o] = Math.exp((logits[o] as number) - max);
          total += delta[o] as number;
        }
        for (let o = 0; o < logits.length; o++) delta[o] = (delta[o] as number) / total;
        loss -= Math.log(Math.max(1e-9, delta[sample.label] as number));
        delta[sample.label] = (delta[sample.label] as number) - 1;
        let upstream = delta;
        for (let index = layers.length - 1; index >= 0; index--) {
          const l = layers[index] as DenseLayer;
          const g = grads[index] as { w: Float32Array; b: Float32Array };
          const input = activations[index] as Float32Array;
          const below = new Float32Array(l.inputs);
          for (let o = 0; o < l.outputs; o++) {
            const d = upstream[o] as number;
            if (d === 0) continue;
            g.b[o] = (g.b[o] as number) + d;
            const row = o * l.inputs;
            for (let i = 0; i < l.inputs; i++) {
              g.w[row + i] = (g.w[row + i] as number) + d * (input[i] as number);
              below[i] = (below[i] as number) + d * (l.weights[row + i] as number);
            }
          }
          if (index > 0) for (let i = 0; i < below.length; i++) if ((input[i] as number) <= 0) below[i] = 0;
          upstream = below;
        }
      }
      t++;
      const count = end - start;
      for (const [index, l] of layers.entries()) {
        const m = moments[index] as (typeof moments)[number];
        const g = grads[index] as { w: Float32Array; b: Float32Array };
        adam(l.weights, g.w, m.mw, m.vw, count, rate, t, 1e-5);
        adam(l.biases, g.b, m.mb, m.vb, count, rate, t, 0);
      }
    }
    const correct = validation.filter((s) => argmax(forward(layers, s.patch)) === s.label).length;
    console.log(
      `epoch ${epoch + 1}: loss ${(loss / data.length).toFixed(4)}, validation ${((100 * correct) / validation.length).toFixed(2)} % of ${validation.length}`,
    );
  }
}

function adam(
  params: Float32Array,
  grad: Float32Array,
  m: Float32Array,
  v: Float32Array,
  count: number,
  rate: number,
  t: number,
  decay: number,
): void {
  const b1 = 0.9;
  const b2 = 0.999;
  const c1 = 1 - b1 ** t;
  const c2 = 1 - b2 ** t;
  for (let i = 0; i < params.length; i++) {
    const g = (grad[i] as number) / count + decay * (params[i] as number);
    m[i] = b1 * (m[i] as number) + (1 - b1) * g;
    v[i] = b2 * (v[i] as number) + (1 - b2) * g * g;
    params[i] =
      (params[i] as number) - (rate * ((m[i] as number) / c1)) / (Math.sqrt((v[i] as number) / c2) + 1e-8);
  }
}

function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}

const training: Sample[] = [];
const validation: Sample[] = [];
let found = 0;
const started = Date.now();
for (let z = 0; z < ZONES; z++) {
  const held = z % 10 === 0;
  const samples = await samplesOf(await renderZone(), held ? 0 : 1);
  if (samples.length > 0) found++;
  (held ? validation : training).push(...samples);
  if ((z + 1) % 100 === 0)
    console.log(`${z + 1} zones rendered, ${found} found, ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(
  `${training.length} training and ${validation.length} validation cells from ${found} of ${ZONES} zones`,
);
const layers = [layer(CELL_WIDTH * CELL_HEIGHT, 256), layer(256, 128), layer(128, MRZ_ALPHABET.length)];
train(layers, training, validation);
const model = encodeGlyphModel(SMALL ? 'idv-mrz-glyphs-small-mlp-v1' : 'idv-mrz-glyphs-mlp-v2', layers);
const target = new URL(
  `../server/runtime/node/vision/mrz-glyph-weights${SMALL ? '-small' : ''}.ts`,
  import.meta.url,
);
writeFileSync(
  target,
  `// Generated by scripts/train-mrz-glyphs.ts (${ZONES} zones, ${EPOCHS} epochs${SMALL ? ', --small=1' : ''}): do not edit. Our own weights, Apache-2.0.\n` +
    `import type { SerialisedGlyphModel } from './mrz-glyph-model.ts';\n\n` +
    `export const MRZ_GLYPH_WEIGHTS${SMALL ? '_SMALL' : ''}: SerialisedGlyphModel = ${JSON.stringify(model)};\n`,
);
console.log(`wrote ${target.pathname} (${Math.round(model.data.length / 1024)} kB of base64)`);
