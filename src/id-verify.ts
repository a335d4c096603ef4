import { IdVerifyElement } from './id-verify-element.ts';

export { IdVerifyElement };

if (!customElements.get('id-verify')) customElements.define('id-verify', IdVerifyElement);

declare global {
  interface HTMLElementTagNameMap {
    'id-verify': IdVerifyElement;
  }
}
