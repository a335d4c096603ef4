import type { FaceObservation } from '../../../features/vision/vision-engine.ts';

/** A mesh point: x and y in pixels of the analysed image, z (depth) on the same scale. */
export type MeshPoint = readonly [number, number, number?];

/** The part of Human's `FaceResult` this engine reads (a face mesh in MediaPipe's 468 + 10 iris layout). */
export interface MeshFace {
  /** The detector's (BlazeFace's) confidence in the box, 0–1. */
  boxScore: number;
  /** x, y, width, height in pixels. */
  box: readonly [number, number, number, number];
  mesh: readonly MeshPoint[];
  /** Head pose in radians; Human's signs already match the seam's (checked with mirrored photos). */
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  emotion?: readonly { score: number; emotion: string }[];
}

// MediaPipe face-mesh landmark numbers. "Right"/"left" are the person's own: their right eye appears on
// the left of an unmirrored photo.
const RIGHT_EYE = { upper: 159, lower: 145, outer: 33, inner: 133 } as const;
const LEFT_EYE = { upper: 386, lower: 374, outer: 263, inner: 362 } as const;
const INNER_LIP = { upper: 13, lower: 14 } as const;
const FOREHEAD_TOP = 10;
const CHIN = 152;

/**
 * Eye aspect ratio (lid gap ÷ corner-to-corner width, Soukupová & Čech 2016) read as closed and as fully
 * open. Measured in 3-D with the mesh's depth, so a turned head does not foreshorten the width; the iris
 * model refines the eyelid landmarks. Calibration: the astronaut's open eyes read 0.39–0.46 (→ 1), the
 * same photo with the eyes painted shut 0.20 (→ 0.25), where Human's own blink gesture fires too.
 */
export const EYE_ASPECT_CLOSED = 0.15;
export const EYE_ASPECT_OPEN = 0.35;

/**
 * Mouth openness as Human's own "mouth N% open" gesture measures it: inner-lip gap over one fifth of the
 * face's height (forehead top to chin), capped at 1.
 */
const MOUTH_GAP_FULLY_OPEN = 0.2;

function point(mesh: readonly MeshPoint[], index: number): MeshPoint {
  const found = mesh[index];
  if (!found) throw new Error(`Face mesh has no landmark ${index}.`);
  return found;
}

function distance3d(a: MeshPoint, b: MeshPoint): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], (a[2] ?? 0) - (b[2] ?? 0));
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function eyeOpenness(mesh: readonly MeshPoint[], eye: typeof RIGHT_EYE | typeof LEFT_EYE): number {
  const width = distance3d(point(mesh, eye.outer), point(mesh, eye.inner));
  if (width === 0) return 0;
  const ratio = distance3d(point(mesh, eye.upper), point(mesh, eye.lower)) / width;
  return clamp01((ratio - EYE_ASPECT_CLOSED) / (EYE_ASPECT_OPEN - EYE_ASPECT_CLOSED));
}

function mouthOpenness(mesh: readonly MeshPoint[]): number {
  const height = distance3d(point(mesh, FOREHEAD_TOP), point(mesh, CHIN));
  if (height === 0) return 0;
  const gap = distance3d(point(mesh, INNER_LIP.upper), point(mesh, INNER_LIP.lower));
  return clamp01(gap / height / MOUTH_GAP_FULLY_OPEN);
}

const DEGREES = 180 / Math.PI;

/**
 * Maps one face of Human's output to the seam's {@link FaceObservation}, in the pixel space of the
 * original image (`scale` = original size ÷ analysed size). Angles become degrees; Human's signs already
 * follow the seam (yaw < 0: turned to the person's own left; pitch < 0: looking up).
 *
 * @example
 * observeFace(human.result.face[0], 2) // { box: {...}, yaw: -0.3, leftEyeOpen: 1, smile: 0.99, ... }
 */
export function observeFace(face: MeshFace, scale: number): FaceObservation {
  const [x, y, width, height] = face.box;
  const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  const happy = face.emotion?.find((entry) => entry.emotion === 'happy')?.score ?? 0;
  return {
    box: { x: x * scale, y: y * scale, width: width * scale, height: height * scale },
    score: clamp01(face.boxScore),
    yaw: angle.yaw * DEGREES,
    pitch: angle.pitch * DEGREES,
    roll: angle.roll * DEGREES,
    leftEyeOpen: eyeOpenness(face.mesh, LEFT_EYE),
    rightEyeOpen: eyeOpenness(face.mesh, RIGHT_EYE),
    mouthOpen: mouthOpenness(face.mesh),
    smile: clamp01(happy),
  };
}
