import { css, html, LitElement } from 'lit';

export class IdVerifyElement extends LitElement {
  static override styles = css`:host{display:block}`;
  override render() {
    return html`<main part="base"><h1>Identity verification</h1></main>`;
  }
}
