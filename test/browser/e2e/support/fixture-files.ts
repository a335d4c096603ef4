/**
 * The committed vision fixtures (test/fixtures/vision/), fetched from the test server as an end-user's
 * files: the specimen documents (with `manifest.json`, what each one states) and the astronaut's pose
 * stills.
 */

/** One clean specimen of `documents/manifest.json`, as far as the browser tests need it. */
export interface SpecimenDocument {
  file: string;
  document_type: string;
  side: 'front' | 'back' | null;
  person: string | null;
  degradation: string | null;
  fields: {
    first_name: string;
    last_name: string;
    date_of_birth: string;
    expiry_date: string;
    document_number: string;
    nationality: string | null;
  } | null;
}

const ROOT = '/test/fixtures/vision';

async function fetchOk(path: string): Promise<Response> {
  const response = await fetch(path);
  if (!response.ok) {
    throw new Error(
      `fixture ${path} answered ${response.status}: generate the vision fixtures (scripts/fixtures/) first`,
    );
  }
  return response;
}

/** A fixture as a `File` an end-user picks. */
export async function fixtureFile(path: string): Promise<File> {
  const blob = await (await fetchOk(`${ROOT}/${path}`)).blob();
  return new File([blob], path.split('/').pop() ?? 'photo.jpg', { type: blob.type || 'image/jpeg' });
}

/** A specimen of `documents/manifest.json` by file name, with its photo as a picked file. */
export async function specimen(file: string): Promise<SpecimenDocument & { photo: File }> {
  const manifest = (await (await fetchOk(`${ROOT}/documents/manifest.json`)).json()) as {
    images: SpecimenDocument[];
  };
  const found = manifest.images.find((image) => image.file === file);
  if (!found) throw new Error(`no ${file} in the document fixtures' manifest`);
  return { ...found, photo: await fixtureFile(`documents/${file}`) };
}

/** The astronaut facing the camera in one pose (`neutral`, `turn_left`, …), 640×480. */
export function poseStill(pose: string): Promise<File> {
  return fixtureFile(`selfies/camera/${pose}.jpg`);
}

/**
 * The same photo as a new JPEG (drawn on a canvas and encoded again), as a second phone photo of one
 * document would be: another e2e test uploads the file's exact bytes, and the review rightly flags an
 * image uploaded in another session as `duplicate_detection`.
 */
export async function photoAgain(photo: File): Promise<File> {
  const bitmap = await createImageBitmap(photo);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  return new File([blob], photo.name, { type: 'image/jpeg' });
}
