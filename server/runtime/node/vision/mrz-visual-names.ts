/**
 * Letters of the names in doubt, confirmed by the document's visual zone.
 *
 * The names have no check digit: a letter the two readers of the zone (the glyph classifier and
 * Tesseract) do not both read surely goes to the person to confirm. The visual zone prints the same
 * names again, larger and in another face. When a word there spells a name of the zone exactly as the
 * zone is offered, every letter in doubt included, and Tesseract reads those letters confidently, a
 * third reading on another print agrees with the one offered: the letters count as read. A visual zone
 * that spells the name otherwise, or two of its words that disagree, confirm nothing, and nothing is
 * ever changed here: the person still confirms whatever is not agreed.
 */
import type { MrzFormat } from '../../../domain/mrz.ts';
import { MIN_VISUAL_CONFIDENCE, type VisualWord, withNeighbours } from './mrz-visual-zone.ts';

/**
 * The shortest name the visual zone may confirm, and the fewest of its letters read surely in the zone:
 * a word of the visual zone that agrees on one or two letters could be any other field.
 */
export const MIN_CONFIRMED_NAME_LENGTH = 3;
export const MIN_SURE_NAME_LETTERS = 2;

/** Where the names stand: TD1 the third line, TD2 and TD3 the first after the code and the state. */
export function namesRegion(format: MrzFormat): { line: number; from: number } {
  return format === 'TD1' ? { line: 2, from: 0 } : { line: 0, from: 5 };
}

/** The names' words (runs of letters between fillers), each with where it starts in the line. */
function nameWords(text: string, from: number): { start: number; text: string }[] {
  const words: { start: number; text: string }[] = [];
  for (const match of text.slice(from).matchAll(/[^<]+/g))
    words.push({ start: from + (match.index ?? 0), text: match[0] });
  return words;
}

/**
 * Whether any letter of the names is in doubt: the visual zone is worth reading for them.
 *
 * @example
 * namesInDoubt('TD3', [[16], []]) // true
 */
export function namesInDoubt(format: MrzFormat, uncertain: readonly (readonly number[])[]): boolean {
  const { line, from } = namesRegion(format);
  return (uncertain[line] ?? []).some((k) => k >= from);
}

/**
 * The positions of the names' letters in doubt that the visual zone confirms (on the names line), or an
 * empty list. A name of the zone is confirmed when it is at least {@link MIN_CONFIRMED_NAME_LENGTH}
 * letters long with {@link MIN_SURE_NAME_LETTERS} read surely, some word of the visual zone (or two or
 * three consecutive words joined) spells it exactly with its letters in doubt read at
 * {@link MIN_VISUAL_CONFIDENCE}, and no word that agrees with its sure letters spells those in doubt
 * otherwise.
 *
 * @example
 * visualNameConfirmations('TD3', ['P<FRAULYSSE<<CHRISTOPHE<<<…', …], [[16], []], [{ text: 'CHRISTOPHE', … }])
 * // [16]
 */
export function visualNameConfirmations(
  format: MrzFormat,
  lines: readonly string[],
  uncertain: readonly (readonly number[])[],
  words: readonly VisualWord[],
): number[] {
  const { line, from } = namesRegion(format);
  const doubtful = new Set((uncertain[line] ?? []).filter((k) => k >= from));
  const candidates = withNeighbours(words);
  const confirmed: number[] = [];
  for (const name of nameWords(lines[line] ?? '', from)) {
    const inDoubt = [...name.text].map((_, i) => name.start + i).filter((k) => doubtful.has(k));
    if (inDoubt.length === 0 || name.text.length < MIN_CONFIRMED_NAME_LENGTH) continue;
    if (name.text.length - inDoubt.length < MIN_SURE_NAME_LETTERS) continue;
    const agreeingOnSure = candidates.filter(
      (word) =>
        word.text.length === name.text.length &&
        [...name.text].every((letter, i) => doubtful.has(name.start + i) || word.text[i] === letter),
    );
    const spelled = agreeingOnSure.filter((word) => word.text === name.text);
    if (spelled.length === 0 || spelled.length !== agreeingOnSure.length) continue;
    const confident = spelled.some((word) =>
      inDoubt.every((k) => (word.confidences[k - name.start] ?? 0) >= MIN_VISUAL_CONFIDENCE),
    );
    if (confident) confirmed.push(...inDoubt);
  }
  return confirmed;
}
