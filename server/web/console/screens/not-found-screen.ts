import { html } from 'lit';
import { ConsoleScreen } from '../ui/console-screen.ts';

/** An unknown console path, or a page the user's role does not include (`params.reason === 'forbidden'`). */
export class NotFoundScreen extends ConsoleScreen {
  override render() {
    const t = this.t;
    const forbidden = this.params['reason'] === 'forbidden';
    return html`<h1 tabindex="-1">${t(forbidden ? 'noAccessTitle' : 'notFoundTitle')}</h1>
      <p>${t(forbidden ? 'noAccessBody' : 'notFoundBody')}</p>
      ${this.ctx.me ? html`<p><a href=${this.ctx.me.default_path}>${t('goToStart')}</a></p>` : ''}`;
  }
}

if (!customElements.get('idv-not-found-screen'))
  customElements.define('idv-not-found-screen', NotFoundScreen);
