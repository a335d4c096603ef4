import type { Schemas } from '../api/console-api.ts';

type WatchlistEntry = Schemas['WatchlistEntry'];

/** Splits CSV text into rows of fields (RFC 4180: quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"' && field === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((value) => value.trim() !== ''));
}

function entryOf(name: string, dateOfBirth?: string, list?: string, aliases?: string[]): WatchlistEntry {
  const entry: WatchlistEntry = { name: name.trim() };
  if (dateOfBirth?.trim()) entry.date_of_birth = dateOfBirth.trim();
  if (list?.trim()) entry.list = list.trim();
  const cleanAliases = (aliases ?? []).map((alias) => alias.trim()).filter(Boolean);
  if (cleanAliases.length > 0) entry.aliases = cleanAliases;
  return entry;
}

/**
 * Reads a watchlist file for `PUT /v1/watchlist`: JSON (an array of entries or `{"entries": [...]}`) or
 * CSV with a header row naming `name` and optionally `date_of_birth`, `list`, `aliases` (separated by
 * `|`). The server validates the entries; this only shapes them. Throws with a reason a person can act on.
 *
 * @example
 *   parseWatchlistFile('list.csv', 'name,date_of_birth\nFICTITIOUS Ivan,1971-04-01')
 *   // → [{ name: 'FICTITIOUS Ivan', date_of_birth: '1971-04-01' }]
 */
export function parseWatchlistFile(fileName: string, text: string): WatchlistEntry[] {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (fileName.toLowerCase().endsWith('.json') || trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const parsed: unknown = JSON.parse(trimmed);
    const entries = Array.isArray(parsed) ? parsed : (parsed as { entries?: unknown })?.entries;
    if (!Array.isArray(entries)) throw new Error('expected an array of entries or {"entries": [...]}');
    return entries.map((item, index) => {
      const value = item as Partial<WatchlistEntry>;
      if (typeof value?.name !== 'string' || !value.name.trim())
        throw new Error(`entry ${index + 1} has no name`);
      return entryOf(value.name, value.date_of_birth, value.list, value.aliases);
    });
  }
  const [header, ...rows] = parseCsv(trimmed);
  const columns = (header ?? []).map((name) => name.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  if (at('name') === -1) throw new Error('the first row must name the columns, one of them "name"');
  return rows.map((row, index) => {
    const name = row[at('name')] ?? '';
    if (!name.trim()) throw new Error(`row ${index + 2} has no name`);
    return entryOf(
      name,
      at('date_of_birth') >= 0 ? row[at('date_of_birth')] : undefined,
      at('list') >= 0 ? row[at('list')] : undefined,
      at('aliases') >= 0 ? (row[at('aliases')] ?? '').split('|') : undefined,
    );
  });
}
