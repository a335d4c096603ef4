/**
 * The visitor of the demo shop, as scripts that run in the demo's tab (test/support-server/demo-e2e-plugin.ts
 * evaluates their source there): each call looks at the page and makes the next move. Shared by the demo's
 * end-to-end tests (test/browser/e2e/demo-*.test.ts). Each function may use only its argument and the
 * page: it travels as source text.
 */

/** passport-astronaut.jpg's fields (test/fixtures/vision/documents/manifest.json). */
export interface PassportFields {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
}

/** What the tab shows, in a few words, for a failure message. */
export function describeTab(): string {
  const widget = document.querySelector('id-verify') as
    | (Element & { state?: Record<string, unknown> })
    | null;
  const state = widget?.state;
  const screen = state
    ? state['phase'] === 'step'
      ? state['screen']
      : `${state['phase']} ${state['status'] ?? ''}`
    : 'no widget';
  // On the liveness screen, where it stands: a flow that ran out of time there says why.
  const live = widget?.shadowRoot?.querySelector('idv-liveness-step') as
    | (Element & Record<string, unknown>)
    | null
    | undefined;
  const liveness = live
    ? ` {liveness: ${JSON.stringify({
        phase: live['phase'],
        guidance: live['guidance'],
        capturing: live['capturing'],
        frames: (live['frames'] as unknown[] | undefined)?.length,
        takenBy: live['takenBy'],
        retryMessage: live['retryMessage'],
        cameraIssue: live['cameraIssue'],
      })}}`
    : '';
  return `${location.pathname}${location.search} [${String(screen)}]${liveness} ${(document.body.textContent ?? '').replace(/\s+/g, ' ').slice(0, 240)}`;
}

/**
 * One move of the visitor, run in the demo tab every few hundred milliseconds: look at what the page shows
 * and do the next thing, once (a move is not repeated within 4 s while the screen stays the same). Returns
 * what the test must do from Node (`upload`), or `done` with what the shop's page shows at the end.
 */
export function visitorMove(arg: { mode: 'embed' | 'redirect'; userId: string; fields: PassportFields }) {
  type Updatable = Element & { updateComplete?: Promise<unknown> };
  const holder = window as unknown as { __visitor?: Record<string, number> };
  holder.__visitor ??= {};
  const memory = holder.__visitor;
  const once = (key: string, act: () => void) => {
    if (performance.now() - (memory[key] ?? -Infinity) < 4000) return;
    memory[key] = performance.now();
    act();
  };
  const deep = (root: Element | Document | null, ...selectors: string[]): Element | null => {
    // From an element, its shadow root (where the widget's parts live); from the document, itself.
    let scope: ParentNode | null = root instanceof Element ? (root.shadowRoot ?? root) : root;
    let found: Element | null = null;
    for (const selector of selectors) {
      found = scope?.querySelector(selector) ?? null;
      if (!found) return null;
      scope = found.shadowRoot ?? found;
    }
    return found;
  };
  const button = (root: Element | null, text: RegExp) =>
    [...((root?.shadowRoot ?? root)?.querySelectorAll('button') ?? [])].find(
      (b) => text.test(b.textContent ?? '') && !b.disabled,
    ) ?? null;
  const fill = (input: HTMLInputElement, value: string) => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  };

  // The shop's page: the result, once its backend has the verified name.
  const result = document.querySelector<HTMLElement>('#result');
  const field = (name: string) => document.querySelector(`[data-field="${name}"]`)?.textContent?.trim() ?? '';
  // Done when the backend has the name and has seen the signed approval (the page polls until both).
  const name = field('verifiedName');
  if (result && !result.hidden && name && name !== '—' && field('events').includes('session.approved')) {
    return {
      done: {
        name,
        status: field('status'),
        events: field('events'),
        sessionId: field('sessionId'),
        url: location.pathname,
      },
    };
  }
  const problem = document.querySelector<HTMLElement>('#problem');
  if (problem && !problem.hidden) return { failed: problem.textContent };

  const widget = document.querySelector('id-verify') as
    | (Element & { state?: { phase: string; screen?: string; status?: string } })
    | null;
  const form = document.querySelector<HTMLFormElement>('#start');
  if (!widget && form) {
    const fieldset = form.querySelector('fieldset');
    // Back from the hosted page (`?session_id=…`): the page asks its backend; nothing to press.
    if (fieldset?.disabled || location.search.includes('session_id=') || (result && !result.hidden)) {
      return { waiting: 'the shop page' };
    }
    once('sign-up', () => {
      fill(form.querySelector<HTMLInputElement>('input[name=userId]')!, arg.userId);
      form.querySelector<HTMLSelectElement>('select[name=outcome]')!.value = 'approved';
      form.querySelector<HTMLButtonElement>(`button[value=${arg.mode}]`)!.click();
    });
    return { waiting: 'the verification to start' };
  }
  const state = widget?.state;
  if (!widget || !state) return { waiting: 'the widget' };
  if (state.phase === 'result') return { waiting: `the shop after ${state.status}` };
  if (state.phase !== 'step') return { waiting: state.phase };
  const screen = state.screen ?? '';
  switch (screen) {
    case 'consent': {
      const step = deep(widget, 'idv-consent-step') as Updatable | null;
      const agree = deep(step, '#agree') as HTMLInputElement | null;
      if (agree && !agree.checked) agree.click();
      const go = button(step, /Agree/);
      if (go) once('consent', () => go.click());
      break;
    }
    case 'document_type': {
      const passport = deep(
        widget,
        'idv-document-step',
        'button[data-type="passport"]',
      ) as HTMLElement | null;
      if (passport) once('document_type', () => passport.click());
      break;
    }
    case 'document_front': {
      const view = deep(widget, 'idv-document-step', 'idv-capture-view');
      const use = button(view, /Use this photo/);
      if (use) {
        once('use-photo', () => use.click());
        break;
      }
      if (view?.shadowRoot?.querySelector('input[type=file]')) {
        if (performance.now() - (memory['upload'] ?? -Infinity) > 8000) {
          memory['upload'] = performance.now();
          return { upload: true };
        }
        break;
      }
      const instead = button(view, /Upload a file instead/);
      // The camera shows the astronaut, not a passport: the visitor picks the passport's photo.
      if (instead) once('upload-instead', () => instead.click());
      break;
    }
    case 'document_details': {
      const step = deep(widget, 'idv-document-step');
      const yes = button(step, /Yes, continue/);
      if (yes) {
        once('details-summary', () => yes.click());
        break;
      }
      if (!deep(step, '#last_name')) break;
      once('details-form', () => {
        for (const [name, value] of Object.entries(arg.fields)) {
          const input = deep(step, `#${name}`) as HTMLInputElement | null;
          if (input && input.value === '') fill(input, value);
        }
        setTimeout(() => button(step, /Confirm details/)?.click(), 300);
      });
      break;
    }
    case 'liveness': {
      const live = deep(widget, 'idv-liveness-step');
      const start = button(live, /^\s*Start\s*$/);
      // Nobody presses Capture: the frame is taken when the face model sees the action (real server) or
      // after the prompt's delay (offline, no model).
      if (start)
        once(`liveness-start-${(live as unknown as { retryMessage?: string }).retryMessage ?? ''}`, () =>
          start.click(),
        );
      // Where the attempt stands, for the trail: frames taken so far (and how), a repeated picture the
      // widget refused, the server's last answer.
      const at = live as unknown as {
        frames?: unknown[];
        takenBy?: string[];
        repeated?: boolean;
        retryMessage?: string;
      } | null;
      if (at?.frames) {
        const taken = at.takenBy?.slice(0, at.frames.length).join(',') || 'none';
        return {
          waiting: `liveness (frames ${taken}${at.repeated ? ', repeated' : ''}${at.retryMessage ? `, retry "${at.retryMessage}"` : ''})`,
        };
      }
      break;
    }
    case 'review': {
      const submit = button(deep(widget, 'idv-review-step'), /^\s*Submit\s*$/);
      if (submit) once('submit', () => submit.click());
      break;
    }
    default:
      break;
  }
  return { waiting: screen };
}

/** The file input of the document step's upload view, for the plugin to choose the passport photo in. */
export function documentFileInput(): Element | null {
  const widget = document.querySelector('id-verify');
  const step = widget?.shadowRoot?.querySelector('idv-document-step');
  const view = (step?.shadowRoot ?? step)?.querySelector('idv-capture-view');
  return view?.shadowRoot?.querySelector('input[type=file]') ?? null;
}
