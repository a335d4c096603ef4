/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: a value starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return would be read as a formula (CSV injection, OWASP), so it gets a leading `'`; a
 * value with a comma, quote or line break is quoted with its quotes doubled.
 *
 * @example csvCell('=HYPERLINK("x")') // `"'=HYPERLINK(""x"")"`
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const defused = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}

/** One CSV record with its CRLF line end. */
export function csvLine(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
