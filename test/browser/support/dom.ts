import type { IdVerifyElement } from '../../../src/id-verify-element.ts';

/** Waits until `check` returns a truthy value (re-checked every 16 ms, timers not frames, which background tabs pause), or fails after `ms`. */
export async function until<T>(
  check: () => T | null | undefined | false,
  ms = 4000,
  what = 'condition',
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
}

/** The element rendering the current screen inside `<id-verify>`. */
export function screenOf(el: IdVerifyElement): HTMLElement & { updateComplete?: Promise<unknown> } {
  const body = el.shadowRoot?.querySelector('[part~="body"]');
  return (body?.firstElementChild as HTMLElement) ?? (body as HTMLElement);
}

/** Query inside a nested shadow root chain: `deep(el, 'idv-document-step', 'idv-capture-view', 'input')`. */
export function deep<E extends Element = HTMLElement>(root: Element, ...selectors: string[]): E | null {
  let node: Element | null = root;
  for (const selector of selectors) {
    const scope: ParentNode | null | undefined = node?.shadowRoot ?? node;
    node = scope?.querySelector(selector) ?? null;
    if (!node) return null;
  }
  return node as E | null;
}

/** Picks a file in an `<input type=file>` the way a user would. */
export function chooseFile(input: HTMLInputElement, file: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Fills a form field and fires the events a user's typing would. */
export function fill(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}
