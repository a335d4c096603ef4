/**
 * The package entry: classes and types only, no side effects (safe to import under SSR). Import
 * `id-verify/define` (src/id-verify.ts) to register `<id-verify>`.
 *
 * @example
 *   import { IdVerifyElement } from 'id-verify';
 *   customElements.define('my-verify', class extends IdVerifyElement {});
 */
export type { VerifyApiClient, VerifyApiOptions } from './api/verify-api.ts';
export { VerifyApi } from './api/verify-api.ts';
export { type ProblemDetails, VerifyApiError } from './api/verify-api-error.ts';
export type * from './api/verify-api.ts';
export { IdvBeforeStepChangeEvent } from './events/idv-before-step-change-event.ts';
export { type IdvCompleteDetail, IdvCompleteEvent } from './events/idv-complete-event.ts';
export { type IdvErrorDetail, IdvErrorEvent } from './events/idv-error-event.ts';
export { type IdvExitDetail, IdvExitEvent } from './events/idv-exit-event.ts';
export { type IdvReadyDetail, IdvReadyEvent } from './events/idv-ready-event.ts';
export { IdvStepChangeEvent } from './events/idv-step-change-event.ts';
export { type IdvTokenExpiredDetail, IdvTokenExpiredEvent } from './events/idv-token-expired-event.ts';
export type { StepChangeDetail } from './events/step-change-detail.ts';
export type { FlowState, Screen } from './flow/flow-types.ts';
export { IdVerifyElement, type Theme } from './id-verify-element.ts';
export { SUPPORTED_LOCALES } from './i18n/localize.ts';
