/** Where the app reports what operators need; never given personal data or secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
