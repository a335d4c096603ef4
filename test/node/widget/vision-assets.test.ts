import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  GUIDANCE_MODELS,
  humanBundledTfjsVersion,
  installedHuman,
  nodeVisionAssets,
} from '../../../server/runtime/node/node-vision-assets.ts';
import { nodeWidgetAssets } from '../../../server/runtime/node/node-widget-assets.ts';
import { HUMAN_VERSION, visionAssetsUrl } from '../../../src/liveness/vision-assets-url.ts';

const require = createRequire(import.meta.url);
const human = installedHuman();
const base = `sdk/vision/human-${human.version}/`;

describe('the liveness face model served from node_modules (/sdk/vision)', () => {
  it('is the Human release the widget asks for', () => {
    assert.equal(HUMAN_VERSION, human.version, 'update HUMAN_VERSION in src/liveness/vision-assets-url.ts');
  });

  it("serves wasm of the tfjs version Human's bundle was built with", () => {
    const wasm = require('@tensorflow/tfjs-backend-wasm/package.json') as { version: string };
    assert.equal(humanBundledTfjsVersion(human.dir), wasm.version);
  });

  it('serves the browser bundle, the guidance models and the wasm with their content types', async () => {
    const assets = nodeVisionAssets();
    const bundle = await assets.get(`${base}human.esm.js`);
    assert.equal(bundle?.headers.get('content-type'), 'text/javascript; charset=utf-8');
    const code = await bundle!.text();
    assert.match(code, /export\s*\{[^}]*\bHuman\b/);
    // The bundle must run under the hosted page's CSP, which allows 'wasm-unsafe-eval' and nothing more.
    assert.doesNotMatch(code, /\bnew Function\(|[^.\w]eval\(/);
    for (const model of GUIDANCE_MODELS) {
      const json = await assets.get(`${base}models/${model}.json`);
      assert.equal(json?.headers.get('content-type'), 'application/json; charset=utf-8', model);
      const manifest = (await json!.json()) as { weightsManifest: { paths: string[] }[] };
      for (const path of manifest.weightsManifest.flatMap((m) => m.paths)) {
        const weights = await assets.get(`${base}models/${path}`);
        assert.equal(weights?.headers.get('content-type'), 'application/octet-stream', path);
      }
    }
    const wasm = await assets.get(`${base}wasm/tfjs-backend-wasm-simd.wasm`);
    assert.equal(wasm?.headers.get('content-type'), 'application/wasm');
    const bytes = new Uint8Array(await wasm!.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
  });

  it('keeps a gzip twin of compressible files, none of weights', async () => {
    const assets = nodeVisionAssets();
    const gz = await assets.get(`${base}human.esm.js.gz`);
    const raw = readFileSync(join(human.dir, 'dist/human.esm.js'));
    const unzipped = gunzipSync(new Uint8Array(await gz!.arrayBuffer()));
    assert.ok(unzipped.equals(raw));
    assert.equal(await assets.get(`${base}models/facemesh.bin.gz`), null);
  });

  it('serves nothing else: other models, other versions, other files', async () => {
    const assets = nodeVisionAssets();
    for (const path of [
      `${base}models/faceres.json`,
      `${base}models/models.json`,
      `${base}human.js`,
      `${base}human.esm.js.map`,
      'sdk/vision/human-0.0.1/human.esm.js',
      `${base}../human-${human.version}/human.esm.js`,
    ]) {
      assert.equal(await assets.get(path), null, path);
    }
  });

  it('is part of the widget assets, next to the built bundle', async () => {
    const response = await nodeWidgetAssets('/nonexistent-dist').get(`${base}models/blazeface.json`);
    assert.equal(response?.status, 200);
    assert.equal(await nodeWidgetAssets('/nonexistent-dist').get('sdk/id-verify.js'), null);
  });

  it('is found next to the verify API the widget talks to', () => {
    assert.equal(
      visionAssetsUrl('https://verify.example.com'),
      `https://verify.example.com/sdk/vision/human-${HUMAN_VERSION}/`,
    );
    assert.equal(
      visionAssetsUrl('https://example.com/kyc/'),
      `https://example.com/kyc/sdk/vision/human-${HUMAN_VERSION}/`,
    );
    assert.equal(visionAssetsUrl('javascript:alert(1)'), null);
    assert.equal(visionAssetsUrl('not a url'), null);
  });
});
