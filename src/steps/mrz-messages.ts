import type { MrzProblem } from '../capture/mrz-input.ts';
import type { MessageKey } from '../i18n/en.ts';
import type { Translate } from '../i18n/localize.ts';

/** The message per failed check digit; the others (personal number, whole zone) share one. */
const CHECK_DIGIT: Partial<Record<string, MessageKey>> = {
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
      return t('mrzErrorCharacters', { line: problem.line });
    case 'shape':
      return shape ? t('mrzErrorShape', shape) : t('mrzErrorShapeAny');
    case 'misplaced':
      return t('mrzErrorMisplaced', { line: problem.line });
    case 'check_digit':
    case 'date':
      return t(CHECK_DIGIT[problem.field] ?? 'mrzErrorCheckDigit');
  }
}
