import { CaptureView } from './components/capture-view.ts';
import { HandoffView } from './components/handoff-view.ts';
import { BusinessDetailsStep } from './steps/business-details-step.ts';
import { ConsentStep } from './steps/consent-step.ts';
import { DocumentStep } from './steps/document-step.ts';
import type { LivenessStep } from './steps/liveness-step.ts';
import { ReviewStep } from './steps/review-step.ts';
import { UploadStep } from './steps/upload-step.ts';

function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}

/**
 * Registers the elements `<id-verify>` renders inside its shadow root. Called when the first
 * `<id-verify>` connects, never at import (the package must be importable under SSR).
 */
export function defineInnerElements(): void {
  define('idv-capture-view', CaptureView);
  define('idv-handoff-view', HandoffView);
  define('idv-consent-step', ConsentStep);
  define('idv-document-step', DocumentStep);
  define('idv-business-details-step', BusinessDetailsStep);
  define('idv-upload-step', UploadStep);
  define('idv-review-step', ReviewStep);
}

/**
 * Registers `<idv-liveness-step>`, loading it first: a chunk of its own, fetched when the selfie check
 * opens (sessions without one never load it), which keeps the script-tag file within its budget. The
 * code it shares with the document step stays in the main file.
 */
export async function defineLivenessStep(): Promise<void> {
  const { LivenessStep } = await import('./steps/liveness-step.ts');
  define('idv-liveness-step', LivenessStep);
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
