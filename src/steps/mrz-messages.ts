import type { MrzProblem } from '../capture/mrz-input.ts';
import { en, type MessageKey } from '../i18n/en.ts';
import type { Translate } from '../i18n/localize.ts';

/**
 * English wording of the details form's MRZ field, until these keys are in `en.ts` and the locales:
 * from then on `mrzText` takes them from the widget's language like every other message.
 */
export const MRZ_MESSAGES = {
  fieldMrz: 'Machine-readable zone (optional)',
  mrzHintTd3: 'The 2 lines of 44 characters at the bottom of the photo page, with every < sign.',
  mrzHintTd1: 'The 3 lines of 30 characters on the back of the card, with every < sign.',
  mrzHintAny:
    'The lines of letters, digits and < signs at the bottom of the photo page or on the back of the card.',
  mrzErrorShape: 'Enter {lines} lines of {length} characters, as printed on your document.',
  mrzErrorCharacters:
    'Line {line} has a character that is not in a machine-readable zone. Use only A–Z, 0–9 and <.',
  mrzErrorMisplaced: 'Line {line} does not look right. Compare each character with your document.',
  mrzErrorShapeAny: 'Enter the 2 or 3 lines exactly as printed on your document.',
  mrzErrorDocumentNumber:
    'The document number in these lines does not match its check digit. Compare each character with your document.',
  mrzErrorDateOfBirth:
    'The date of birth in these lines does not match its check digit, or is not a real date. Compare each character with your document.',
  mrzErrorExpiryDate:
    'The expiry date in these lines does not match its check digit, or is not a real date. Compare each character with your document.',
  mrzErrorCheckDigit:
    'A check digit in these lines does not match. Compare each character with your document.',
  mrzErrorServer:
    'These lines do not check out. Compare each character with your document, or leave the field empty.',
  mrzFilledNote: 'Empty fields were filled in from the machine-readable zone. You can still change them.',
} as const;

export type MrzMessageKey = keyof typeof MRZ_MESSAGES;

/** One of the messages above, translated once the key exists in the catalogue, else in English. */
export function mrzText(t: Translate, key: MrzMessageKey, params?: Record<string, string | number>): string {
  if (key in en) return t(key as MessageKey, params);
  const template: string = MRZ_MESSAGES[key];
  return params
    ? template.replace(/\{(\w+)\}/g, (all, name: string) => String(params[name] ?? all))
    : template;
}

/** The message per failed check digit; the others (personal number, whole zone) share one. */
const CHECK_DIGIT: Partial<Record<string, MrzMessageKey>> = {
  document_number: 'mrzErrorDocumentNumber',
  date_of_birth: 'mrzErrorDateOfBirth',
  expiry_date: 'mrzErrorExpiryDate',
};

/**
 * What to tell the end-user about an MRZ that does not check out, in words they can act on. `shape` is
 * the lines and length the chosen document type prints, null when the type is not known.
 */
export function mrzProblemText(
  t: Translate,
  problem: MrzProblem,
  shape: { lines: number; length: number } | null,
): string {
  switch (problem.kind) {
    case 'characters':
      return mrzText(t, 'mrzErrorCharacters', { line: problem.line });
    case 'shape':
      return shape ? mrzText(t, 'mrzErrorShape', shape) : mrzText(t, 'mrzErrorShapeAny');
    case 'misplaced':
      return mrzText(t, 'mrzErrorMisplaced', { line: problem.line });
    case 'check_digit':
    case 'date':
      return mrzText(t, CHECK_DIGIT[problem.field] ?? 'mrzErrorCheckDigit');
  }
}
