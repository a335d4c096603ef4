/**
 * What the console's end-to-end tests share to drive a server plugin (test/support-server/*-e2e-plugin.ts)
 * and the console tab it opens: a command asked again while it outlives the page's limit, and a wait for
 * a condition checked inside that tab.
 */
import { executeServerCommand } from '@web/test-runner-commands';

export const STEP_MS = 45_000;

/**
 * One server command. The page gives up on a command after 20 s; commands that wait longer (the first
 * one starts the server) are simply asked again until `budgetMs` runs out: they wait for the same work.
 */
async function command<T>(name: string, payload: object = {}, budgetMs = STEP_MS): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (;;) {
    try {
      return (await executeServerCommand<T, object>(name, payload)) as T;
    } catch (error) {
      if (performance.now() > deadline || !/Did not receive a server response/.test(String(error))) {
        throw error;
      }
    }
  }
}

/** Finds `selectors` one inside the other's shadow root (or light DOM), from the console tab's document. */
export function find(selectors: string[]): Element | null {
  let scope: ParentNode = document;
  let found: Element | null = null;
  for (const selector of selectors) {
    found = scope.querySelector(selector);
    if (!found) return null;
    scope = found.shadowRoot ?? found;
  }
  return found;
}

/**
 * A plugin's commands, typed by its command names (`Name`), and `inConsole`, a wait in the console tab the
 * plugin opened, by its wait command (`waitCommand`): `inConsole(what, check, arg)` resolves when
 * `check(arg, find)` returns something truthy there. `check` runs in that tab, not here: it may use only
 * its arguments (it travels as source text), and what it returns must be JSON (an element comes back as
 * `undefined`).
 */
export function consoleTab<Name extends string>(waitCommand: Name) {
  async function inConsole<A, T>(
    what: string,
    check: (arg: A, deep: typeof find) => T | null | false | undefined,
    arg: A,
    ms = STEP_MS,
  ): Promise<T> {
    const script = `(arg) => (${check.toString()})(arg, ${find.toString()})`;
    const deadline = performance.now() + ms;
    for (;;) {
      const answer = await command<{ value?: T; showing?: string }>(waitCommand, {
        script,
        arg,
        timeout_ms: 10_000,
      });
      if (answer.value) return answer.value;
      if (performance.now() > deadline) {
        throw new Error(`timed out waiting for ${what} in the console, which shows ${answer.showing}`);
      }
    }
  }
  return {
    command: command as <T>(name: Name, payload?: object, budgetMs?: number) => Promise<T>,
    inConsole,
  };
}

/** A plugin's commands alone, for tests that mount the console in their own page. */
export function serverCommands<Name extends string>() {
  return command as <T>(name: Name, payload?: object, budgetMs?: number) => Promise<T>;
}
