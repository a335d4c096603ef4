import { html, LitElement, type ReactiveController } from 'lit';

/**
 * A bare Lit element to host one controller under test: counts the updates the controller asked for
 * and renders whatever the test gives it (a screen with a heading, a live region).
 */
export class ControllerTestHost extends LitElement {
  updates = 0;
  content: unknown = html``;
  readonly controllers: ReactiveController[] = [];

  override addController(controller: ReactiveController): void {
    this.controllers.push(controller);
    super.addController(controller);
  }

  override requestUpdate(...args: Parameters<LitElement['requestUpdate']>): void {
    this.updates += 1;
    super.requestUpdate(...args);
  }

  override render() {
    return this.content;
  }
}

if (!customElements.get('idv-controller-test-host')) {
  customElements.define('idv-controller-test-host', ControllerTestHost);
}

/** A connected host, removed again by `cleanup()`. */
export function mountHost(): ControllerTestHost {
  const host = document.createElement('idv-controller-test-host') as ControllerTestHost;
  document.body.append(host);
  return host;
}

/** Events of the given types that reach `target`, in order. */
export function record(target: EventTarget, types: readonly string[]): { type: string; detail: unknown }[] {
  const seen: { type: string; detail: unknown }[] = [];
  for (const type of types) {
    target.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }));
  }
  return seen;
}
