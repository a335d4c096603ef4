/**
 * The liveness step's on-device face guidance: Human (`@vladmandic/human`, tfjs on its wasm backend)
 * imported at run time from the verify server's `/sdk/vision/…` (server/runtime/node/node-vision-assets.ts), never
 * from a CDN and never bundled: this module is a lazy chunk of ~1.5 KB gzip, and the model and runtime
 * (2.5 MB: bundle, wasm, detector and mesh; +2.5 MB iris for a blink, +0.8 MB emotion for a smile) only
 * download when the liveness step opens with a camera.
 *
 * The guidance only decides when to take each frame and what to tell the end-user; the server judges
 * every frame again with its own models.
 */
import type { LivenessAction } from '../api/verify-api.ts';
import { ActionFollower, type FaceMeasure, type GuidanceVerdict } from './face-guidance.ts';
import { type HumanFace, measureHumanFace } from './human-face-measure.ts';

/** Frames are looked at this wide at most: the detector works at 256 px and the mesh on a face crop. */
const ANALYSIS_WIDTH = 640;

/** The Human surface this module uses (the bundle is loaded from a URL, so no package types). */
interface HumanInstance {
  config: { face: { emotion: { enabled: boolean }; iris: { enabled: boolean } } };
  load(): Promise<void>;
  detect(input: HTMLCanvasElement): Promise<{ face: HumanFace[]; error?: string | null }>;
  tf: { getBackend(): string };
}
type HumanConstructor = new (config: Record<string, unknown>) => HumanInstance;

/** Follows one prompted action across frames; {@link FaceGuide.follow} makes one per action. */
export interface ActionGuide {
  /** Looks at a frame (any size; it is scaled down here) and says what is in the way, or that it is time. */
  look(frame: HTMLCanvasElement): Promise<GuidanceVerdict>;
}

export interface FaceGuide {
  /** Which wasm/webgl backend tfjs runs on, for diagnostics. */
  readonly backend: string;
  follow(action: LivenessAction): Promise<ActionGuide>;
}

/**
 * The Human configuration: the face detector (up to two faces, to say "only you"), the mesh (head pose,
 * eyelids), the iris model (sharper eyelids) only for a blink and the emotion model only for a smile;
 * everything else off. No caching of detections between frames: every look is a fresh frame.
 */
function humanConfig(base: string): Record<string, unknown> {
  return {
    backend: 'wasm',
    modelBasePath: `${base}models/`,
    wasmPath: `${base}wasm/`,
    wasmPlatformFetch: false,
    // The HTTP cache keeps the immutable model files; nothing goes to IndexedDB.
    cacheModels: false,
    warmup: 'none',
    debug: false,
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 2, minConfidence: 0.5, skipFrames: 0, return: false },
      mesh: { enabled: true },
      attention: { enabled: false },
      iris: { enabled: false },
      emotion: { enabled: false, skipFrames: 0, minConfidence: 0.05 },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
  };
}

/**
 * Imports Human from `base` (`…/sdk/vision/human-<version>/`), loads the detector and mesh (and the iris
 * or emotion model when `actions` has a blink or a smile), and runs one detection so the first real
 * frame is not the slow one. Rejects when anything is missing (no WebAssembly, a CSP without
 * 'wasm-unsafe-eval', the files not served): the step then falls back to timed capture.
 *
 * @example
 *   const guide = await loadFaceGuide('https://verify.example.com/sdk/vision/human-3.3.6/', ['turn_left']);
 *   const turn = await guide.follow('turn_left');
 *   const { issue, ready } = await turn.look(canvas);
 */
export async function loadFaceGuide(
  base: string,
  actions: readonly LivenessAction[] = [],
): Promise<FaceGuide> {
  const module = (await import(/* @vite-ignore */ `${base}human.esm.js`)) as { Human: HumanConstructor };
  const human = new module.Human(humanConfig(base));
  // Download now what the challenge will need; each look then runs only the models of its action.
  human.config.face.iris.enabled = actions.includes('blink');
  human.config.face.emotion.enabled = actions.includes('smile');
  await human.load();
  human.config.face.iris.enabled = false;
  human.config.face.emotion.enabled = false;
  const backend = human.tf.getBackend();
  if (backend !== 'wasm') throw new Error(`face model backend unavailable (got ${backend})`);
  const canvas = document.createElement('canvas');

  const analyse = async (frame: HTMLCanvasElement): Promise<FaceMeasure[]> => {
    const scale = Math.min(1, ANALYSIS_WIDTH / frame.width);
    canvas.width = Math.round(frame.width * scale);
    canvas.height = Math.round(frame.height * scale);
    canvas.getContext('2d')?.drawImage(frame, 0, 0, canvas.width, canvas.height);
    const result = await human.detect(canvas);
    if (result.error) throw new Error(result.error);
    return result.face.map((face) => measureHumanFace(face, canvas.width, canvas.height));
  };

  // Warm-up: the first inference compiles and allocates; better now than on the first prompt.
  canvas.width = 64;
  canvas.height = 64;
  await human.detect(canvas);

  return {
    backend,
    async follow(action) {
      human.config.face.iris.enabled = action === 'blink';
      human.config.face.emotion.enabled = action === 'smile';
      // Loads the models this action needs when the challenge did not announce it (a no-op otherwise).
      await human.load();
      const follower = new ActionFollower(action);
      return { look: async (frame) => follower.look(await analyse(frame)) };
    },
  };
}
