import type { Logger } from '../app-deps.ts';
import type { LogLevel } from './operations-config.ts';

/**
 * The server's log: one JSON object per line on stdout (where container platforms collect it), with the
 * time, the level and the message, then the caller's fields. Callers choose fields that are ids, counts
 * and classes, never request bodies, tokens or personal data. One `JSON.stringify` and one write a record.
 *
 * @example
 * const logger = jsonLinesLogger('info');
 * logger.info('server started', { port: 8080 });
 * // {"time":"2025-01-01T00:00:00.000Z","level":"info","message":"server started","port":8080}
 */
export function jsonLinesLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => {
    process.stdout.write(line);
  },
): Logger {
  const record = (severity: 'info' | 'error', message: string, fields: Record<string, unknown> = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level: severity, message, ...fields })}\n`);
  };
  return {
    info: level === 'info' ? (message, fields) => record('info', message, fields) : () => {},
    error: level === 'silent' ? () => {} : (message, fields) => record('error', message, fields),
  };
}
