/**
 * React 19 JSX typings of the id-verify custom elements. Generated from the custom-elements manifest by
 * scripts/generate-framework-types.ts (`npm run build:npm` runs it): do not edit, a test fails when this
 * file drifts from the manifest.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { IdVerifyElement } from '../id-verify-element.ts';

/**
 * `<id-verify>` in React 19 JSX: React sets each prop the element has as a property (objects and
 * booleans arrive as they are), any other as an attribute, and listens to `on<event-name>` props.
 */
export interface IdVerifyElementJsxProps
  extends DetailedHTMLProps<HTMLAttributes<IdVerifyElement>, IdVerifyElement> {
  /** The session's link `{verify_base_url}/verify/<token>`; the token is sent in `x-verify-token`, never in a URL. */
  verifyUrl?: IdVerifyElement['verifyUrl'];
  /** The `verifyUrl` property as an attribute (a string); prefer the property. */
  'verify-url'?: string;
  /** With `apiBase`, an alternative to `verifyUrl`. */
  token?: IdVerifyElement['token'];
  /** The API origin (and path prefix, if any) for `token`. */
  apiBase?: IdVerifyElement['apiBase'];
  /** The `apiBase` property as an attribute (a string); prefer the property. */
  'api-base'?: string;
  /** A BCP 47 tag; unset or unsupported, the session's locale, then the browser's languages, then English. */
  locale?: IdVerifyElement['locale'];
  /** Colour scheme: `light`, `dark`, or `auto` (follows `prefers-color-scheme`); reflected to the attribute. */
  theme?: IdVerifyElement['theme'];
  /** Offer file upload as well as the camera for documents (default on; `allow-upload="false"` turns it off). */
  allowUpload?: IdVerifyElement['allowUpload'];
  /** The `allowUpload` property as an attribute (a string); prefer the property. */
  'allow-upload'?: string;
  /** Replaces the built-in fetch client (tests, custom transports). */
  api?: IdVerifyElement['api'];
  /** Milliseconds between status polls while the checks run or a phone carries on. */
  pollInterval?: IdVerifyElement['pollInterval'];
  /** first: the session loaded, before the first `idv-step-change`; once per token, again after a fresh `verify-url`. */
  'onidv-ready'?: (event: GlobalEventHandlersEventMap['idv-ready']) => void;
  /** before another step's screen; cancelable: `preventDefault()` holds the current screen until `proceed()`. */
  'onidv-before-step-change'?: (event: GlobalEventHandlersEventMap['idv-before-step-change']) => void;
  /** a new screen is shown. */
  'onidv-step-change'?: (event: GlobalEventHandlersEventMap['idv-step-change']) => void;
  /** the session reached a final status for this visit. */
  'onidv-complete'?: (event: GlobalEventHandlersEventMap['idv-complete']) => void;
  /** an error was shown; `attempts_exhausted` when a step has none left. */
  'onidv-error'?: (event: GlobalEventHandlersEventMap['idv-error']) => void;
  /** the end-user pressed Close on a final screen (without a `redirect_url` a closing screen follows). */
  'onidv-exit'?: (event: GlobalEventHandlersEventMap['idv-exit']) => void;
  /** the link or the session expired; for `token_expired` set a fresh `verify-url` to resume (not fired for an invalid link). */
  'onidv-token-expired'?: (event: GlobalEventHandlersEventMap['idv-token-expired']) => void;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'id-verify': IdVerifyElementJsxProps;
    }
  }
}
