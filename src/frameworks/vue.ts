/**
 * Vue 3 typings of the id-verify custom elements. Generated from the custom-elements manifest by
 * scripts/generate-framework-types.ts (`npm run build:npm` runs it): do not edit, a test fails when this
 * file drifts from the manifest.
 */
import type { DefineComponent } from 'vue';
import type { IdVerifyElement } from '../id-verify-element.ts';

/**
 * `<id-verify>` in Vue templates: bind properties (`:verify-url` or `:verifyUrl`), listen with
 * `@event-name`. Tell the compiler it is a custom element (`isCustomElement`, docs/embedding.md).
 */
export interface IdVerifyElementVueProps {
  /** The session's link `{verify_base_url}/verify/<token>`; the token is sent in `x-verify-token`, never in a URL. */
  verifyUrl?: IdVerifyElement['verifyUrl'];
  /** With `apiBase`, an alternative to `verifyUrl`. */
  token?: IdVerifyElement['token'];
  /** The API origin (and path prefix, if any) for `token`. */
  apiBase?: IdVerifyElement['apiBase'];
  /** A BCP 47 tag; unset or unsupported, the session's locale, then the browser's languages, then English. */
  locale?: IdVerifyElement['locale'];
  /** Colour scheme: `light`, `dark`, or `auto` (follows `prefers-color-scheme`); reflected to the attribute. */
  theme?: IdVerifyElement['theme'];
  /** Offer file upload as well as the camera for documents (default on; `allow-upload="false"` turns it off). */
  allowUpload?: IdVerifyElement['allowUpload'];
  /** Replaces the built-in fetch client (tests, custom transports). */
  api?: IdVerifyElement['api'];
  /** Milliseconds between status polls while the checks run or a phone carries on. */
  pollInterval?: IdVerifyElement['pollInterval'];
  /** first: the session loaded, before the first `idv-step-change`; once per token, again after a fresh `verify-url`. */
  onIdvReady?: (event: GlobalEventHandlersEventMap['idv-ready']) => void;
  /** before another step's screen; cancelable: `preventDefault()` holds the current screen until `proceed()`. */
  onIdvBeforeStepChange?: (event: GlobalEventHandlersEventMap['idv-before-step-change']) => void;
  /** a new screen is shown. */
  onIdvStepChange?: (event: GlobalEventHandlersEventMap['idv-step-change']) => void;
  /** the session reached a final status for this visit. */
  onIdvComplete?: (event: GlobalEventHandlersEventMap['idv-complete']) => void;
  /** an error was shown; `attempts_exhausted` when a step has none left. */
  onIdvError?: (event: GlobalEventHandlersEventMap['idv-error']) => void;
  /** the end-user pressed Close on a final screen (without a `redirect_url` a closing screen follows). */
  onIdvExit?: (event: GlobalEventHandlersEventMap['idv-exit']) => void;
  /** the link or the session expired; for `token_expired` set a fresh `verify-url` to resume (not fired for an invalid link). */
  onIdvTokenExpired?: (event: GlobalEventHandlersEventMap['idv-token-expired']) => void;
}

declare module 'vue' {
  interface GlobalComponents {
    'id-verify': DefineComponent<IdVerifyElementVueProps>;
  }
}
