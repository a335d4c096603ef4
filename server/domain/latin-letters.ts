/**
 * ICAO 9303 part 3 transliterations. Issuers differ (Müller is MUELLER in Germany, MULLER elsewhere), so
 * names are compared both with these expansions and with plain base letters.
 */
export const ICAO_EXPANSIONS: Readonly<Record<string, string>> = {
  Ä: 'AE',
  Ö: 'OE',
  Ü: 'UE',
  Å: 'AA',
  Æ: 'AE',
  Ø: 'OE',
  Œ: 'OE',
  Þ: 'TH',
  Ĳ: 'IJ',
};

/** Letters that Unicode does not decompose into a base letter plus accent. */
const BASE_LETTERS: Readonly<Record<string, string>> = {
  Æ: 'AE',
  Ø: 'O',
  Œ: 'OE',
  Þ: 'TH',
  Ð: 'D',
  Đ: 'D',
  Ħ: 'H',
  Ł: 'L',
  Ŀ: 'L',
  Ŋ: 'N',
  Ĳ: 'IJ',
  ı: 'I',
};

/**
 * Upper-case A–Z words of a name or a text: `expansions` first (pass {@link ICAO_EXPANSIONS} or `{}`),
 * then accents dropped; anything else (`<`, `-`, `'`, digits, line breaks) separates words.
 *
 * @example
 * latinTokens('Jörg-Peter Müller', ICAO_EXPANSIONS) // ['JOERG', 'PETER', 'MUELLER']
 * latinTokens('Jörg-Peter Müller', {}) // ['JORG', 'PETER', 'MULLER']
 */
export function latinTokens(name: string, expansions: Readonly<Record<string, string>>): string[] {
  // toUpperCase turns ß into SS, matching ICAO.
  const upper = name.normalize('NFC').toUpperCase();
  const expanded = Array.from(upper, (char) => expansions[char] ?? BASE_LETTERS[char] ?? char).join('');
  const unaccented = expanded.normalize('NFD').replace(/\p{Mark}/gu, '');
  return unaccented.split(/[^A-Z]+/).filter((token) => token !== '');
}
