import type { IdDocumentType, Side } from '../api/verify-api.ts';

/**
 * The machine-readable zones (ICAO Doc 9303) the widget knows, and which document prints which. Apart
 * from the MRZ reader (mrz-input.ts), which loads only with the details form's MRZ field.
 */

/** ID-1 cards (TD1), ID-2 cards (TD2) and passports (TD3): what the server takes (API.md). */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

/** Lines and characters per line of each format (Doc 9303 parts 4–6). */
export const MRZ_SHAPE: Readonly<Record<MrzFormat, { lines: number; length: number }>> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
};

/**
 * The formats each document type may print, its usual one first. Cards are TD1, some older ones TD2;
 * driving licences carry no ICAO MRZ.
 */
export const MRZ_FORMATS: Readonly<Record<IdDocumentType, readonly MrzFormat[]>> = {
  passport: ['TD3'],
  id_card: ['TD1', 'TD2'],
  residence_permit: ['TD1', 'TD2'],
  driving_licence: [],
};

/**
 * How many MRZ lines the camera guide draws for `side` of `type`: a passport's data page has its TD3
 * zone (the only side taken); a card's TD1 zone is on its back, so its front shows none.
 *
 * @example mrzLines('id_card', 'back') // 3
 */
export function mrzLines(type: IdDocumentType | null, side: Side): number {
  if (type === 'passport') return MRZ_SHAPE.TD3.lines;
  return type && side === 'back' && MRZ_FORMATS[type][0] === 'TD1' ? MRZ_SHAPE.TD1.lines : 0;
}
