import { CaptureView } from './components/capture-view.ts';
import { HandoffView } from './components/handoff-view.ts';
import { BusinessDetailsStep } from './steps/business-details-step.ts';
import { ConsentStep } from './steps/consent-step.ts';
import { DocumentStep } from './steps/document-step.ts';
import { LivenessStep } from './steps/liveness-step.ts';
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
  // In the main file, not a lazy chunk: it shares nearly all its code with the document step, and a
  // chunk would force that shared code into a second file too (~2 KB gzip saved vs. one more request).
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
