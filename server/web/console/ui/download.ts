/**
 * Saves a blob the console fetched with its token (a CSV export) as a file: a `blob:` URL clicked as a
 * download and revoked right after, so the data has no address once the browser has it.
 *
 * @example
 *   downloadBlob(await api.blob('/v1/exports/sessions?status=approved'), 'sessions-sandbox-2026-11-28.csv');
 */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // After the click's task: the download has taken the bytes.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
