import type { FaceMeasure } from './face-guidance.ts';

/** The part of a Human (`@vladmandic/human`) face result the guidance reads. */
export interface HumanFace {
  /** Pixels: x, y, width, height. */
  box: readonly [number, number, number, number] | readonly number[];
  /** 468 (478 with iris) points: x, y in pixels, z depth on the same scale. */
  mesh: readonly (readonly number[])[];
  /** Radians, from the mesh; absent when the mesh model is off. */
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  /** Present only when the emotion model ran; emotions under its confidence floor are left out. */
  emotion?: readonly { score: number; emotion: string }[];
}

/**
 * Human's head pose already follows the server's convention on an unmirrored frame (yaw < 0: the person
 * turned to their own left; pitch < 0: they look up), as the server's engine reads it too
 * (server/runtime/node/vision/face-geometry.ts); the face-camera test checks it on the astronaut's poses.
 */
const DEGREES = 180 / Math.PI;

/**
 * Eye aspect ratio (lid gap over corner-to-corner width, in 3-D with the mesh's depth) read as closed
 * and as fully open: the server's own calibration (server/runtime/node/vision/face-geometry.ts), so the device
 * and the server measure a blink alike.
 */
const EYE_ASPECT_CLOSED = 0.15;
const EYE_ASPECT_OPEN = 0.35;

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/** Mesh points per eye of the person: upper and lower lid, outer and inner corner. */
const EYES = [
  [159, 145, 33, 133],
  [386, 374, 263, 362],
] as const;

function distance(a: readonly number[] | undefined, b: readonly number[] | undefined): number {
  if (!a || !b) return 0;
  return Math.hypot((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0), (a[2] ?? 0) - (b[2] ?? 0));
}

function eyeOpenness(mesh: HumanFace['mesh']): number | null {
  // Without the mesh's 468 points (detector-only result) there are no eyelids to read.
  if (mesh.length < 468) return null;
  const open = EYES.map(([upper, lower, outer, inner]) => {
    const width = distance(mesh[outer], mesh[inner]);
    if (width === 0) return 0;
    const ratio = distance(mesh[upper], mesh[lower]) / width;
    return clamp01((ratio - EYE_ASPECT_CLOSED) / (EYE_ASPECT_OPEN - EYE_ASPECT_CLOSED));
  });
  return Math.max(...open);
}

/**
 * Converts one Human face to the server's units and conventions, on a frame of `width` × `height`.
 *
 * @example
 *   const result = await human.detect(canvas);
 *   const faces = result.face.map((face) => measureHumanFace(face, canvas.width, canvas.height));
 */
export function measureHumanFace(face: HumanFace, width: number, height: number): FaceMeasure {
  const [x = 0, y = 0, w = 0, h = 0] = face.box;
  const angle = face.rotation?.angle;
  return {
    box: { x: x / width, y: y / height, width: w / width, height: h / height },
    yaw: angle ? angle.yaw * DEGREES : 0,
    pitch: angle ? angle.pitch * DEGREES : 0,
    eyesOpen: eyeOpenness(face.mesh),
    smile: face.emotion ? (face.emotion.find((e) => e.emotion === 'happy')?.score ?? 0) : null,
  };
}
