/*
 * A SAMPLE WATCHLIST FOR TESTS AND DEMOS. Every person in it is invented: the names are chosen to
 * be obviously fictional ("Fictitious", "Madeup", "Nonexistent") and match no real sanctions or PEP
 * list. Never use it to screen real people; a deployment plugs in a licensed list provider.
 */
import type { WatchlistEntry } from './watchlist.ts';

/**
 * Invented entries that exercise the matcher: aliases, a transliterated name, diacritics, a name
 * with a birth date and one with only a birth year.
 *
 * @example
 * screenWatchlist({ first_name: 'Ivan', last_name: 'Fictitious' }, SAMPLE_WATCHLIST).hits.length // 1
 */
export const SAMPLE_WATCHLIST: readonly WatchlistEntry[] = [
  {
    name: 'FICTITIOUS, Ivan',
    aliases: ['Ivan Fiktivny', 'Vanya Fictitious'],
    date_of_birth: '1971-04-01',
    list: 'sample-sanctions',
  },
  { name: 'Oleksandr Madeup-Placeholder', aliases: ['Olexandr Madeup'], list: 'sample-sanctions' },
  { name: 'José Ñoño Inventado', date_of_birth: '1980', list: 'sample-pep' },
  { name: 'Zoë Nonexistent', list: 'sample-pep' },
];
