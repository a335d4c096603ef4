import { CaptureView } from './components/capture-view.ts';
import type { HandoffView } from './components/handoff-view.ts';
import type { BusinessDetailsStep } from './steps/business-details-step.ts';
import { ConsentStep } from './steps/consent-step.ts';
import { DocumentStep } from './steps/document-step.ts';
import type { LivenessStep } from './steps/liveness-step.ts';
import { ReviewStep } from './steps/review-step.ts';
import type { UploadStep } from './steps/upload-step.ts';

function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}

/**
 * Registers the elements `<id-verify>` renders inside its shadow root. Called when the first
 * `<id-verify>` connects, never at import (the package must be importable under SSR).
 */
export function defineInnerElements(): void {
  define('idv-capture-view', CaptureView);
  define('idv-consent-step', ConsentStep);
  define('idv-document-step', DocumentStep);
  define('idv-review-step', ReviewStep);
}

/**
 * The screens not every session opens, each a chunk of its own fetched when it first opens: the selfie
 * check (not in tier1 or business flows), the business details and the proof-of-address or business
 * document upload (only their flows), the phone handoff (only on a click, never on a phone). Keeping them
 * out keeps the script-tag file within its budget; the code they share with the document step stays in the
 * main file. Literal `import()` calls so the bundler can see and split them.
 */
const ON_DEMAND = {
  'idv-liveness-step': async () => (await import('./steps/liveness-step.ts')).LivenessStep,
  'idv-business-details-step': async () =>
    (await import('./steps/business-details-step.ts')).BusinessDetailsStep,
  'idv-upload-step': async () => (await import('./steps/upload-step.ts')).UploadStep,
  'idv-handoff-view': async () => (await import('./components/handoff-view.ts')).HandoffView,
} satisfies Record<string, () => Promise<CustomElementConstructor>>;

export type OnDemandElement = keyof typeof ON_DEMAND;

/**
 * Loads and registers one on-demand screen. The shell renders its tag at once: lit keeps the properties
 * set before the upgrade and applies them when the class arrives. Rejects when the chunk cannot be loaded
 * (offline), for the shell to show its offline screen.
 */
export async function defineOnDemand(name: OnDemandElement): Promise<void> {
  if (customElements.get(name)) return;
  define(name, await ON_DEMAND[name]());
}

/** Registers `<idv-liveness-step>` (see `defineOnDemand`). */
export function defineLivenessStep(): Promise<void> {
  return defineOnDemand('idv-liveness-step');
}

declare global {
  interface HTMLElementTagNameMap {
    'idv-capture-view': CaptureView;
    'idv-handoff-view': HandoffView;
    'idv-consent-step': ConsentStep;
    'idv-document-step': DocumentStep;
    'idv-business-details-step': BusinessDetailsStep;
    'idv-upload-step': UploadStep;
    'idv-review-step': ReviewStep;
    'idv-liveness-step': LivenessStep;
  }
}
