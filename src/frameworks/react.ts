/**
 * React components (@lit/react, React 18 and later) of the id-verify custom elements. Generated from the custom-elements manifest by
 * scripts/generate-framework-types.ts (`npm run build:npm` runs it): do not edit, a test fails when this
 * file drifts from the manifest.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { IdVerifyElement } from '../id-verify-element.ts';
import '../id-verify.ts';

// Registers the elements (id-verify/define), so rendering a component is enough.

/**
 * `<id-verify>` as a React component (React 18 or later): props set the element's properties,
 * and `on…` callbacks receive its typed events.
 *
 * @example
 * <IdVerify verifyUrl={url} onIdvComplete={(event) => setStatus(event.detail.status)} />
 */
export const IdVerify = createComponent({
  tagName: 'id-verify',
  elementClass: IdVerifyElement,
  react: React,
  events: {
    onIdvReady: 'idv-ready' as EventName<GlobalEventHandlersEventMap['idv-ready']>,
    onIdvBeforeStepChange: 'idv-before-step-change' as EventName<
      GlobalEventHandlersEventMap['idv-before-step-change']
    >,
    onIdvStepChange: 'idv-step-change' as EventName<GlobalEventHandlersEventMap['idv-step-change']>,
    onIdvComplete: 'idv-complete' as EventName<GlobalEventHandlersEventMap['idv-complete']>,
    onIdvError: 'idv-error' as EventName<GlobalEventHandlersEventMap['idv-error']>,
    onIdvExit: 'idv-exit' as EventName<GlobalEventHandlersEventMap['idv-exit']>,
    onIdvTokenExpired: 'idv-token-expired' as EventName<GlobalEventHandlersEventMap['idv-token-expired']>,
  },
});
