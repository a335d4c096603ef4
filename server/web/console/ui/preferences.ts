/**
 * The user's display choices. Theme and language are remembered across visits (localStorage: they are not
 * secret); the environment only for this tab (sessionStorage), so a second tab can look at the other one.
 * Every access tolerates storage being unavailable.
 */
type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readPreference(which: Area, key: string): string | null {
  try {
    return area(which)?.getItem(`idv-console-${key}`) ?? null;
  } catch {
    return null;
  }
}

export function writePreference(which: Area, key: string, value: string): void {
  try {
    area(which)?.setItem(`idv-console-${key}`, value);
  } catch {
    // Not remembered; the choice still applies to this page.
  }
}
