/**
 * Registers `<id-verify>` (the one module with a side effect). Safe to import twice or after a
 * different copy registered the tag.
 *
 * @example
 *   import 'id-verify/define';
 *   document.body.append(Object.assign(document.createElement('id-verify'), { verifyUrl }));
 */
import { IdVerifyElement } from './id-verify-element.ts';

export * from './index.ts';

if (typeof customElements !== 'undefined' && !customElements.get('id-verify')) {
  customElements.define('id-verify', IdVerifyElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'id-verify': IdVerifyElement;
  }
}
