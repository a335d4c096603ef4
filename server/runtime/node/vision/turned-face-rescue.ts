import type * as Tf from '@tensorflow/tfjs-core';
import type { MeshFace } from './face-geometry.ts';
import type { FaceProposer } from './face-proposals.ts';
import { boxOverlap, faceInImage, rescueRegion } from './face-rescue-region.ts';

/** Two faces found again around different proposals overlapping this much (IoU) are one face. */
const SAME_FACE_OVERLAP = 0.3;

/**
 * Faces BlazeFace missed in the whole image, found again around the second detector's proposals: each
 * proposal's region ({@link rescueRegion}) is cut out (black past the image's edges), `detectMesh` (the
 * same BlazeFace, mesh, iris and emotion with the same thresholds) runs on it, and what it accepts is
 * moved back into the image's pixels. Nothing is accepted on the proposer's word alone: a cat's head that
 * face-api's SSD scored 0.9 scores under 0.5 with BlazeFace on its region. One face found from two
 * proposals is kept once, with its higher box score.
 *
 * @example
 * const faces = await rescueTurnedFaces(frame, proposer, detectMesh, tf);
 */
export async function rescueTurnedFaces<Face extends MeshFace>(
  image: Tf.Tensor3D,
  proposer: FaceProposer,
  detectMesh: (region: Tf.Tensor3D) => Promise<Face[]>,
  tf: typeof Tf,
): Promise<Face[]> {
  const [height, width] = [image.shape[0], image.shape[1]];
  const found: Face[] = [];
  for (const proposal of await proposer.propose(image)) {
    const region = rescueRegion(proposal.box);
    const crop = tf.tidy(() =>
      tf.squeeze<Tf.Tensor3D>(
        tf.image.cropAndResize(
          tf.expandDims<Tf.Tensor4D>(tf.cast(image, 'float32')),
          [
            [
              region.y / height,
              region.x / width,
              (region.y + region.side) / height,
              (region.x + region.side) / width,
            ],
          ],
          [0],
          [region.size, region.size],
        ),
      ),
    );
    let faces: Face[];
    try {
      faces = await detectMesh(crop);
    } finally {
      crop.dispose();
    }
    for (const inRegion of faces) {
      const face = faceInImage(inRegion, region);
      const same = found.findIndex((other) => boxOverlap(other.box, face.box) >= SAME_FACE_OVERLAP);
      if (same === -1) found.push(face);
      else if (face.boxScore > (found[same] as Face).boxScore) found[same] = face;
    }
  }
  return found;
}
