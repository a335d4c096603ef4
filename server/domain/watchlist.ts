/** One person on a sanctions or PEP list, in the shape list providers publish. */
export interface WatchlistEntry {
  /** Full name in any order, e.g. `"FICTITIOUS, Ivan"` or `"Ivan Fictitious"`. */
  name: string;
  aliases?: readonly string[];
  /** `YYYY-MM-DD`, or `YYYY` / `YYYY-MM` when the list only knows that much. */
  date_of_birth?: string;
  /** Which list the entry comes from, e.g. `"sample-sanctions"`. */
  list?: string;
}

/** The person being verified, as confirmed at `PUT /v1/verify/details`. */
export interface WatchlistSubject {
  first_name: string;
  last_name: string;
  date_of_birth?: string;
}

export interface WatchlistHit {
  entry: WatchlistEntry;
  /** The entry's name or alias that scored best. */
  matchedName: string;
  /** Name similarity 0–1 (1 = identical after normalisation). */
  score: number;
  /** `match` when both dates are known and agree at the list's precision, `unknown` when either is missing. */
  dateOfBirth: 'match' | 'unknown';
}

export interface WatchlistScreening {
  hits: WatchlistHit[];
  /** The score from which a name counted as a hit. */
  threshold: number;
}

/**
 * Default hit threshold on {@link nameSimilarity}. Calibrated in test/node/watchlist: a one-letter typo
 * ("Fictitous") or a transliteration variant ("Olexandr"/"Oleksandr") scores ≥ 0.95, a different
 * given name with the same surname ("Anna" or "Maria" vs "Ivan Fictitious") ≤ 0.8. Screening prefers a
 * false hit sent to review over a missed one, hence a threshold below the typo scores rather than near 1.
 */
export const WATCHLIST_THRESHOLD = 0.9;

/** Letters NFKD does not decompose into a base letter plus a combining mark. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  þ: 'th',
  ð: 'd',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŋ: 'n',
};

/**
 * Splits a personal name into comparable tokens: compatibility-decomposed (NFKD, so `ﬁ` is `fi`),
 * diacritics removed, lower case, apostrophes dropped (`O'Brien` is `obrien`, as in an MRZ), every
 * other non-letter a separator (hyphens, commas, MRZ `<` fillers). Letters of any script are kept,
 * so Cyrillic names compare with Cyrillic names; transliteration between scripts is not attempted.
 *
 * @example
 * nameTokens('  Ångström-Núñez, José ') // ['angstrom', 'nunez', 'jose']
 * nameTokens('ERIKSSON<<ANNA<MARIA') // ['eriksson', 'anna', 'maria']
 */
export function nameTokens(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæøœþðđłıħŋ]/g, (letter) => SPECIAL_LETTERS[letter] ?? letter)
    .replace(/['’`ʼ]/g, '');
  return folded.split(/[^\p{L}]+/u).filter((token) => token.length > 0);
}

/**
 * Jaro-Winkler similarity (0–1): tolerant of typos and transpositions, and rewards a shared prefix
 * (up to 4 characters, scale 0.1), which suits names whose beginnings are rarely misspelt.
 *
 * @example
 * jaroWinkler('martha', 'marhta') // ≈ 0.961
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) transpositions++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < Math.min(a.length, b.length) && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * Each token of the shorter name paired with its most similar unused token of the longer one,
 * averaged: finds "Ivan Fictitious" inside "Ivan Petrovich Fictitious".
 */
function alignedTokenScore(shorter: readonly string[], longer: readonly string[]): number {
  const used = new Set<number>();
  let total = 0;
  for (const token of shorter) {
    let best = 0;
    let bestIndex = -1;
    longer.forEach((candidate, index) => {
      if (used.has(index)) return;
      const score = jaroWinkler(token, candidate);
      if (score > best) {
        best = score;
        bestIndex = index;
      }
    });
    if (bestIndex >= 0) used.add(bestIndex);
    total += best;
  }
  return total / shorter.length;
}

/**
 * Order-insensitive similarity of two full names (0–1). When both have several tokens, each token of
 * the shorter name is paired with its most similar token of the longer one and the scores averaged:
 * "Fictitious Ivan" = "Ivan Fictitious", typos cost little, extra middle names nothing. Tokens are
 * compared one by one on purpose: joining the sorted tokens into one string would let a shared surname
 * at the start carry the whole score ("Maria Fictitious" would match "Ivan Fictitious"). When either
 * name is a single token (a mononym, or names written together like "McDonald"), the names are
 * compared whole in their own order, so a lone "Ivan" does not match every Ivan on the list.
 *
 * @example
 * nameSimilarity('FICTITIOUS, Ivan', 'Ivan Fictitious') // 1
 * nameSimilarity('Maria Fictitious', 'Ivan Fictitious') // < 0.8
 */
export function nameSimilarity(a: string, b: string): number {
  const left = nameTokens(a);
  const right = nameTokens(b);
  if (left.length === 0 || right.length === 0) return 0;
  if (left.length < 2 || right.length < 2) return jaroWinkler(left.join(''), right.join(''));
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  return alignedTokenScore(shorter, longer);
}

/** Compares at the precision both sides have: `1970` agrees with `1970-03-02`. */
function datesAgree(subject: string, listed: string): boolean {
  const precision = Math.min(subject.length, listed.length);
  return subject.slice(0, precision) === listed.slice(0, precision);
}

/**
 * Screens a person against watchlist entries and their aliases. A name at or above the threshold
 * is a hit unless both dates of birth are known and disagree: a namesake with another birth date
 * is the most common false positive, and the date is on the document the subject just showed.
 * Hits come best first.
 *
 * @example
 * screenWatchlist({ first_name: 'Ivan', last_name: 'Fictitious' }, SAMPLE_WATCHLIST)
 * // { threshold: 0.9, hits: [{ matchedName: 'Ivan Fictitious', score: 1, dateOfBirth: 'unknown', entry }] }
 */
export function screenWatchlist(
  subject: WatchlistSubject,
  entries: readonly WatchlistEntry[],
  options: { threshold?: number } = {},
): WatchlistScreening {
  const threshold = options.threshold ?? WATCHLIST_THRESHOLD;
  const fullName = `${subject.first_name} ${subject.last_name}`;
  const hits: WatchlistHit[] = [];
  for (const entry of entries) {
    let best: { name: string; score: number } | null = null;
    for (const name of [entry.name, ...(entry.aliases ?? [])]) {
      const score = nameSimilarity(fullName, name);
      if (best === null || score > best.score) best = { name, score };
    }
    if (best === null || best.score < threshold) continue;
    const bothDated = subject.date_of_birth !== undefined && entry.date_of_birth !== undefined;
    if (bothDated && !datesAgree(subject.date_of_birth ?? '', entry.date_of_birth ?? '')) continue;
    hits.push({
      entry,
      matchedName: best.name,
      score: best.score,
      dateOfBirth: bothDated ? 'match' : 'unknown',
    });
  }
  return { hits: hits.sort((a, b) => b.score - a.score), threshold };
}
