import type { Logger } from '../../logger.ts';
import type { LogLevel } from './operations-config.ts';

/**
 * The server's log: one JSON object per line on stdout (where container platforms collect it), with the
 * time, the level and the message, then the caller's fields. Callers choose fields that are ids, counts
 * and classes, never request bodies, tokens or personal data. One `JSON.stringify` a record; the writes
 * are batched (batchedStdout).
 *
 * @example
 * const logger = jsonLinesLogger('info');
 * logger.info('server started', { port: 8080 });
 * // {"time":"2025-01-01T00:00:00.000Z","level":"info","message":"server started","port":8080}
 */
export function jsonLinesLogger(level: LogLevel, write: (line: string) => void = batchedStdout()): Logger {
  const record = (severity: 'info' | 'error', message: string, fields: Record<string, unknown> = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level: severity, message, ...fields })}\n`);
  };
  return {
    info: level === 'info' ? (message, fields) => record('info', message, fields) : () => {},
    error: level === 'silent' ? () => {} : (message, fields) => record('error', message, fields),
  };
}

/** How long a log line may wait to share a write with the lines after it. */
const FLUSH_DELAY_MS = 20;
/** Gathered text that is written at once rather than waiting for the delay. */
const FLUSH_BYTES = 64 * 1024;

/**
 * A writer to stdout that gathers lines and writes them together at most FLUSH_DELAY_MS later. stdout on a
 * pipe or file is written synchronously on Linux, and one write (and one wake-up of the reader) per
 * request log line was about a tenth of the CPU of a cheap API request (issue #13 profile): under load
 * one write now carries dozens of lines. Lines keep their order. Whatever is still gathered when the
 * process exits (a signal's graceful stop, `process.exit`, an uncaught error) is written synchronously
 * in the `exit` handler, so only a SIGKILL can lose the last few milliseconds of lines.
 */
export function batchedStdout(stream: NodeJS.WriteStream = process.stdout): (line: string) => void {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const text = pending;
    pending = '';
    stream.write(text);
  };
  process.on('exit', flush);
  return (line) => {
    pending += line;
    if (pending.length >= FLUSH_BYTES) flush();
    // Unreferenced: a pending flush never keeps the process alive (the exit handler writes the rest).
    else if (!timer) timer = setTimeout(flush, FLUSH_DELAY_MS).unref();
  };
}
