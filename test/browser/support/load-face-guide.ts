/**
 * The script of `/__csp__/face-guide.html` (web-test-runner.config.mjs): loads the liveness face guide
 * from this origin's `/sdk/vision/` under the hosted page's CSP and leaves the outcome on `window`.
 */
import { loadFaceGuide } from '../../../src/liveness/face-guide.ts';
import { HUMAN_VERSION } from '../../../src/liveness/vision-assets-url.ts';

type Outcome = { backend: string; ms: number } | { error: string };

const started = performance.now();
loadFaceGuide(`${location.origin}/__vision__/sdk/vision/human-${HUMAN_VERSION}/`).then(
  (guide) => {
    (window as { __faceGuide?: Outcome }).__faceGuide = {
      backend: guide.backend,
      ms: Math.round(performance.now() - started),
    };
  },
  (error: unknown) => {
    (window as { __faceGuide?: Outcome }).__faceGuide = { error: String(error) };
  },
);
