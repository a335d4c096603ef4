/** The identity fields of a North American driving licence or ID card barcode. Dates `YYYY-MM-DD`. */
export interface AamvaFields {
  /** Given names: first and middle, separated by single spaces, as printed (upper case). */
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  expiry_date: string | null;
  document_number: string;
  /** The jurisdiction code of the address (DAJ), e.g. `CA`, `ON`. */
  issuing_jurisdiction: string | null;
}

/** Canadian provinces and territories: their cards print dates year first (CCYYMMDD). */
const CANADIAN_JURISDICTIONS: ReadonlySet<string> = new Set([
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'NT',
  'NU',
  'ON',
  'PE',
  'QC',
  'SK',
  'YT',
]);

/** Values jurisdictions print for "no such name" (AAMVA: `NONE`, `unavl`/`UNAVL` for unavailable). */
const NO_VALUE: ReadonlySet<string> = new Set(['NONE', 'UNAVL', 'UNAVAILABLE', 'N/A']);

/**
 * The header after the compliance indicator (`@`, LF, RS, CR): file type `ANSI ` (`AAMVA` before the
 * 2000 standard), the 6-digit issuer identification number, the 2-digit AAMVA version, from version 02 on
 * a 2-digit jurisdiction version, then the 2-digit number of subfile designators.
 */
const HEADER = /(?:ANSI ?|AAMVA)(\d{6})(\d{2})/;

interface Header {
  version: number;
  /** Index just after the number of entries: where the subfile designators start. */
  designatorsAt: number;
  entries: number;
}

/**
 * Parses the PDF417 text of an AAMVA DL/ID card (AAMVA DL/ID Card Design Standard, annex D): the
 * header, the subfile designators, and the elements of the `DL` or `ID` subfile — DCS family name (DAB in
 * version 01), DAC first and DAD middle name (DCT given names in version 02, DAA `LAST,FIRST,MIDDLE` in
 * 01), DBB birth date, DBA expiry date, DAQ licence or ID number, DAJ jurisdiction.
 *
 * Dates: version 01 prints CCYYMMDD; from version 02 US cards print MMDDCCYY and Canadian cards CCYYMMDD
 * (country from DCG, else the jurisdiction code). With years limited to 1900–2199 the two layouts can
 * never both read as a valid date (CCYY starts 19–21, which is never a month), so a card that deviates
 * from its country's layout is still read correctly instead of being dropped.
 *
 * Subfiles are found by their designator's offset; jurisdictions that miscount offsets (and readers that
 * strip control characters) are handled by searching for the subfile type followed by an element id.
 * Returns null when the text is not AAMVA data or lacks the last name, first name or number; a date that
 * is missing or impossible is null on its own.
 *
 * @example
 * parseAamva('@\n\x1e\rANSI 636014090001DL00310067DLDAQD1234567\nDCSSAMPLE\nDACJANE\nDADQ\nDBB04011990\nDBA04012030\nDAJCA\r')
 * // { first_name: 'JANE Q', last_name: 'SAMPLE', date_of_birth: '1990-04-01', expiry_date: '2030-04-01',
 * //   document_number: 'D1234567', issuing_jurisdiction: 'CA' }
 */
export function parseAamva(text: string): AamvaFields | null {
  const header = readHeader(text);
  if (header === null) return null;
  const subfile = findSubfile(text, header);
  if (subfile === null) return null;
  const elements = readElements(subfile);

  const names = namesOf(elements, header.version);
  const documentNumber = value(elements, 'DAQ');
  if (names === null || documentNumber === null) return null;
  const jurisdiction = value(elements, 'DAJ')?.toUpperCase() ?? null;
  const yearFirst = header.version <= 1 || isCanadian(value(elements, 'DCG'), jurisdiction);
  return {
    first_name: names.first,
    last_name: names.last,
    date_of_birth: aamvaDate(value(elements, 'DBB'), yearFirst),
    expiry_date: aamvaDate(value(elements, 'DBA'), yearFirst),
    document_number: documentNumber,
    issuing_jurisdiction: jurisdiction,
  };
}

function readHeader(text: string): Header | null {
  const match = HEADER.exec(text);
  // The header opens the data: a few characters of compliance indicator and separators at most.
  if (match === null || match.index > 8) return null;
  const version = Number(match[2]);
  let at = match.index + match[0].length;
  if (version >= 2) at += 2; // jurisdiction version number
  const entries = text.slice(at, at + 2);
  if (!/^\d{2}$/.test(entries)) return null;
  return { version, designatorsAt: at + 2, entries: Number(entries) };
}

/** The `DL` (driving licence) or `ID` (identification card) subfile, starting after its 2-letter type. */
function findSubfile(text: string, header: Header): string | null {
  const types: string[] = [];
  for (let i = 0; i < header.entries; i++) {
    const designator = /^([A-Z]{2})(\d{4})(\d{4})/.exec(text.slice(header.designatorsAt + i * 10));
    if (designator === null) break;
    const [, type, offset, length] = designator as unknown as [string, string, string, string];
    if (type !== 'DL' && type !== 'ID') continue;
    types.push(type);
    const start = Number(offset);
    if (text.startsWith(type, start)) return text.slice(start + 2, start + Number(length));
  }
  // Offsets that do not point at the subfile: look for its type followed by an element id.
  const searchFrom = header.designatorsAt + header.entries * 10;
  for (const type of types.length > 0 ? types : ['DL', 'ID']) {
    const at = text.slice(searchFrom).search(new RegExp(`${type}(?=D[A-Z]{2})`));
    if (at >= 0) return text.slice(searchFrom + at + 2);
  }
  return null;
}

/** The record separator (RS, 0x1E); with the segment terminator (CR) it ends a subfile. */
const RECORD_SEPARATOR = String.fromCharCode(0x1e);

/** Element id (3 letters) → trimmed value; elements end at LF or CR, the subfile at CR or RS. */
function readElements(subfile: string): Map<string, string> {
  const body = subfile.split('\r')[0]?.split(RECORD_SEPARATOR)[0] ?? '';
  const elements = new Map<string, string>();
  for (const line of body.split('\n')) {
    const match = /^([A-Z]{3})(.*)$/.exec(line.trim());
    if (match === null) continue;
    const [, id, raw] = match as unknown as [string, string, string];
    if (!elements.has(id)) elements.set(id, raw.trim());
  }
  return elements;
}

/** A present, meaningful value, upper case, or null. */
function value(elements: ReadonlyMap<string, string>, id: string): string | null {
  const raw = elements.get(id)?.replace(/\s+/g, ' ').trim().toUpperCase();
  if (raw === undefined || raw === '' || NO_VALUE.has(raw)) return null;
  return raw;
}

function namesOf(
  elements: ReadonlyMap<string, string>,
  version: number,
): { first: string; last: string } | null {
  // Version 01: DAA is `LAST,FIRST,MIDDLE` (or separated by spaces), DAB/DAC/DAD may also be given.
  const full =
    version <= 1
      ? value(elements, 'DAA')
          ?.split(',')
          .map((part) => part.trim())
      : undefined;
  const last = value(elements, 'DCS') ?? value(elements, 'DAB') ?? full?.[0] ?? null;
  const given =
    joinNames(value(elements, 'DAC'), value(elements, 'DAD')) ??
    // Version 02: DCT holds all given names, separated by commas or spaces.
    value(elements, 'DCT')?.replaceAll(',', ' ') ??
    joinNames(full?.[1] ?? null, full?.[2] ?? null);
  if (last === null || given === null || given === '') return null;
  return { first: given.replace(/\s+/g, ' ').trim(), last };
}

function joinNames(first: string | null, middle: string | null): string | null {
  if (first === null) return null;
  return middle === null ? first : `${first} ${middle}`;
}

function isCanadian(country: string | null, jurisdiction: string | null): boolean {
  if (country !== null) return country === 'CAN';
  return jurisdiction !== null && CANADIAN_JURISDICTIONS.has(jurisdiction);
}

/** An 8-digit AAMVA date as `YYYY-MM-DD`, trying the country's layout first; null when neither reads. */
function aamvaDate(raw: string | null, yearFirst: boolean): string | null {
  if (raw === null || !/^\d{8}$/.test(raw)) return null;
  const asYearFirst = () => isoDate(raw.slice(0, 4), raw.slice(4, 6), raw.slice(6, 8));
  const asMonthFirst = () => isoDate(raw.slice(4, 8), raw.slice(0, 2), raw.slice(2, 4));
  return yearFirst ? (asYearFirst() ?? asMonthFirst()) : (asMonthFirst() ?? asYearFirst());
}

function isoDate(yearText: string, monthText: string, dayText: string): string | null {
  const [year, month, day] = [Number(yearText), Number(monthText), Number(dayText)];
  if (year < 1900 || year > 2199) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31 April over to 1 May; a real calendar date survives the round trip.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return `${yearText}-${monthText}-${dayText}`;
}
