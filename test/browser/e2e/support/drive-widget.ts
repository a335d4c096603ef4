import type { IdVerifyElement } from '../../../../src/id-verify-element.ts';
import { chooseFile, deep, fill, until } from '../../support/dom.ts';

/**
 * Drives `<id-verify>` through its screens the way an end-user does: clicks, typed values, chosen files.
 * Every wait names what it waits for, so a failure says which screen the flow stopped on.
 */

type Updatable = Element & { updateComplete?: Promise<unknown> };

/** The screen name (`consent`, `document_front`, `result_approved`, …) or the phase. */
export function where(el: IdVerifyElement): string {
  const state = el.state;
  if (state.phase === 'step') return state.screen;
  if (state.phase === 'result') return `result_${state.status}`;
  return state.phase;
}

/** The alerts the current screen shows (server messages, retake reasons), for failure messages. */
export function alertsOf(el: IdVerifyElement): string {
  const texts: string[] = [];
  const visit = (root: ParentNode) => {
    for (const node of root.querySelectorAll('*')) {
      if (node.getAttribute('role') === 'alert')
        texts.push((node.textContent ?? '').replace(/\s+/g, ' ').trim());
      if (node.shadowRoot) visit(node.shadowRoot);
    }
  };
  if (el.shadowRoot) visit(el.shadowRoot);
  return texts.join(' | ');
}

export async function onScreen(el: IdVerifyElement, screen: string, ms = 8000): Promise<void> {
  try {
    await until(() => where(el) === screen, ms, `screen ${screen}`);
  } catch {
    throw new Error(`timed out waiting for screen ${screen}: on ${where(el)}, alerts: "${alertsOf(el)}"`);
  }
}

/** The first enabled button in `root`'s shadow root (or light DOM) whose text matches. */
export function findButton(root: Element | null, text: RegExp): HTMLButtonElement | null {
  const scope = root?.shadowRoot ?? root;
  return (
    [...(scope?.querySelectorAll('button') ?? [])].find(
      (b) => text.test(b.textContent ?? '') && !b.disabled,
    ) ?? null
  );
}

export async function clickButton(root: Element | null, text: RegExp, what: string, ms = 8000) {
  const found = await until(() => findButton(root, text), ms, what);
  found.click();
}

/** Mounts the widget as a tenant page does: only the `verify_url` its backend got from `POST /v1/sessions`. */
export function mountWidget(verifyUrl: string): IdVerifyElement {
  const el = document.createElement('id-verify');
  el.setAttribute('locale', 'en');
  el.setAttribute('verify-url', verifyUrl);
  document.body.append(el);
  return el;
}

export async function giveConsent(el: IdVerifyElement): Promise<void> {
  await onScreen(el, 'consent');
  const step = (await until(() => deep(el, 'idv-consent-step'), 4000, 'consent step')) as Updatable;
  deep<HTMLInputElement>(step, '#agree')?.click();
  await step.updateComplete;
  await clickButton(step, /Agree/, 'Agree button');
}

export async function chooseDocumentType(el: IdVerifyElement, type: string): Promise<void> {
  await onScreen(el, 'document_type');
  const choice = await until(
    () => deep<HTMLButtonElement>(el, 'idv-document-step', `button[data-type="${type}"]`),
    4000,
    `document type ${type}`,
  );
  choice.click();
}

/** The capture view's preview, then "Use this photo": the captured JPEG goes to the server. */
export async function acceptPreview(el: IdVerifyElement, ms = 10_000): Promise<void> {
  const view = () => deep(el, 'idv-document-step', 'idv-capture-view');
  await until(() => view()?.shadowRoot?.querySelector('img[part~="preview"]'), ms, 'capture preview');
  await clickButton(view(), /Use this photo/, '"Use this photo"');
}

/** On a document capture screen in upload mode: chooses `file` and accepts the preview. */
export async function uploadDocumentSide(el: IdVerifyElement, file: File): Promise<void> {
  const input = await until(
    () => deep<HTMLInputElement>(el, 'idv-document-step', 'idv-capture-view', 'input[type=file]'),
    6000,
    'document file input',
  );
  chooseFile(input, file);
  await acceptPreview(el);
}

export interface TypedDetails {
  first_name?: string;
  last_name?: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
}

/** Types what the form does not prefill and confirms. */
export async function confirmDetails(el: IdVerifyElement, details: TypedDetails): Promise<void> {
  await onScreen(el, 'document_details');
  const form = await until(() => deep(el, 'idv-document-step'), 4000, 'details form');
  await until(() => deep<HTMLInputElement>(form, '#first_name'), 4000, 'details inputs');
  for (const [name, value] of Object.entries(details)) {
    const input = deep<HTMLInputElement>(form, `#${name}`);
    if (!input) throw new Error(`no #${name} input`);
    if (value !== undefined && input.value === '') fill(input, value);
  }
  await clickButton(form, /Confirm details/, '"Confirm details"');
}

/**
 * The details screen after the server read the document: the short "Is this correct?" summary when it
 * read everything (checked against `details`, then "Yes, continue"), else the form, prefilled with what
 * it read, completed from `details`. Says which one it met.
 */
export async function confirmReadDetails(
  el: IdVerifyElement,
  details: TypedDetails & { last_name: string },
  ms = 60_000,
): Promise<'summary' | 'form'> {
  await onScreen(el, 'document_details', ms);
  const step = await until(() => deep(el, 'idv-document-step'), 4000, 'document step');
  const shown = await until(() => deep(step, 'dl.read') ?? deep(step, 'form'), 20_000, 'summary or form');
  if (shown.tagName !== 'DL') {
    await confirmDetails(el, details);
    return 'form';
  }
  const text = shown.textContent?.replace(/\s+/g, ' ') ?? '';
  for (const value of [details.last_name, details.document_number]) {
    if (!text.includes(value)) throw new Error(`the summary of what was read misses "${value}": ${text}`);
  }
  await clickButton(step, /Yes, continue/, '"Yes, continue"');
  return 'summary';
}

/** The liveness step's element (lazily loaded chunk) once its challenge has arrived. */
export async function livenessStep(
  el: IdVerifyElement,
): Promise<Updatable & { challenge: { actions: string[] } | null }> {
  await onScreen(el, 'liveness', 10_000);
  return until(
    () => {
      const step = deep(el, 'idv-liveness-step') as
        | (Updatable & { challenge: { actions: string[] } | null })
        | null;
      return step?.challenge ? step : null;
    },
    8000,
    'liveness challenge',
  );
}

/**
 * Seconds of camera time between two pressed captures. The card camera drifts once round its ellipse per
 * 2 s loop (test/fixtures/fake-camera.ts), so frames a third of a loop apart differ plainly; frames pressed
 * back to back can show the same picture when a loaded runner stalls the video, and the server rightly
 * refuses those as `frames_repeated`.
 */
const CAPTURE_SPACING_S = 0.6;
/**
 * How long a press may take to give its frame, and the shutter to come back: the frame is checked on the
 * device before it is kept, and on a loaded 2-core runner with three browsers at work that took more than
 * 8 s once (the mock suite's tier2 flow, frame 3). A wait that ends as soon as the frame is there.
 */
const FRAME_WAIT_MS = 20_000;

/**
 * Liveness by the front fake camera without the face model (the card camera shows no face): Start, then
 * Capture once per prompted action, each press waiting for its frame and for the camera to have moved on,
 * the way a person who does not wait for the timer does. Returns the challenge's actions, so the caller
 * can check how many frames were stored.
 */
export async function answerLivenessByCamera(el: IdVerifyElement): Promise<string[]> {
  const live = (await livenessStep(el)) as Updatable & {
    challenge: { actions: string[] } | null;
    frames: Blob[];
  };
  const actions = live.challenge?.actions ?? [];
  await clickButton(live, /Start/, 'liveness Start');
  // Camera time (the stream's clock, which stalls with the video) of the previous press.
  let pressedAt = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < actions.length; i++) {
    const shutter = await until(
      () => {
        const button = deep<HTMLButtonElement>(live, 'button[part~="shutter"]');
        const video = deep<HTMLVideoElement>(live, 'video');
        const movedOn = video !== null && video.currentTime >= pressedAt + CAPTURE_SPACING_S;
        return button && !button.disabled && video && video.videoWidth > 0 && movedOn ? button : null;
      },
      FRAME_WAIT_MS,
      `shutter for action ${i + 1}`,
    );
    pressedAt = deep<HTMLVideoElement>(live, 'video')?.currentTime ?? pressedAt;
    shutter.click();
    await until(() => live.frames.length > i || where(el) !== 'liveness', FRAME_WAIT_MS, `frame ${i + 1}`);
  }
  return actions;
}

/** The liveness step as the drivers see it. */
export type LiveStep = Updatable & {
  challenge: { actions: string[] } | null;
  frames: Blob[];
  phase: string;
  retryMessage: string;
  /** How each frame of the attempt was taken: the action seen on the device, the timer, or Capture. */
  takenBy: string[];
};

/**
 * Liveness until the server accepts it, as a person does: Start, `answer` the challenge (by camera or
 * files), and when the server asks for another try (a new challenge, another attempt) do it again, up
 * to `attempts` times. Returns each attempt's actions; the last one was accepted.
 */
export async function answerLivenessUntilAccepted(
  el: IdVerifyElement,
  answer: (live: LiveStep, actions: string[]) => Promise<void>,
  attempts = 3,
): Promise<string[][]> {
  const answered: string[][] = [];
  // What the widget said after each refused attempt, and how it took the frames: what a failure names.
  const refusals: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const live = (await livenessStep(el)) as LiveStep;
    const actions = [...(live.challenge?.actions ?? [])];
    answered.push(actions);
    await clickButton(live, /Start/, `liveness Start (attempt ${attempt})`);
    await answer(live, actions);
    await until(
      () => where(el) !== 'liveness' || (live.phase === 'intro' && live.retryMessage !== ''),
      60_000,
      `the verdict on liveness attempt ${attempt}`,
    );
    if (where(el) !== 'liveness') return answered;
    refusals.push(`${live.retryMessage} (frames taken by: ${live.takenBy.join(', ')})`);
  }
  throw new Error(
    `liveness not accepted in ${attempts} attempts: ${JSON.stringify(answered)}; the widget said ${JSON.stringify(refusals)}`,
  );
}

export async function submitOnReview(el: IdVerifyElement): Promise<void> {
  await onScreen(el, 'review', 15_000);
  const review = await until(() => deep(el, 'idv-review-step'), 4000, 'review step');
  await clickButton(review, /^\s*Submit\s*$/, 'Submit button');
}

/** Resolves with the `idv-complete` detail, or rejects after `ms` naming the screen the flow is on. */
export function completion(
  el: IdVerifyElement,
  ms: number,
): Promise<{ session_id: string | null; status: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no idv-complete in ${ms} ms (on ${where(el)})`)), ms);
    el.addEventListener(
      'idv-complete',
      (event) => {
        clearTimeout(timer);
        resolve((event as CustomEvent).detail);
      },
      { once: true },
    );
  });
}
