/**
 * The hosted page's script: points `<id-verify>` at this page's own link (the token travels in the
 * `x-verify-token` header from here on, never in a query), and sends the end-user back to the tenant at
 * a final status.
 */
import '../../../src/id-verify.ts';
import { redirectTarget } from './hosted-redirect.ts';

/** Long enough to read the outcome, short enough not to feel stuck. */
const REDIRECT_DELAY_MS = 2500;

// Lit adds <style> tags only where constructable stylesheets are missing (old Safari); the nonce the
// server put in the page lets those through the CSP without 'unsafe-inline'.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce && !nonce.startsWith('__')) (window as { litNonce?: string }).litNonce = nonce;

const widget = document.querySelector('id-verify');
if (widget) {
  const language = new URLSearchParams(location.search).get('locale');
  if (language) widget.locale = language;
  widget.verifyUrl = `${location.origin}${location.pathname}`;

  const leave = () => {
    const session = widget.session;
    const state = widget.state;
    if (state.phase !== 'result' || state.status === 'processing') return;
    const target = redirectTarget(session?.redirect_url, session?.session_id, state.status);
    if (target) location.replace(target);
  };
  widget.addEventListener('idv-complete', () => setTimeout(leave, REDIRECT_DELAY_MS));
  widget.addEventListener('idv-exit', leave);
  widget.addEventListener('idv-step-change', () => {
    document.title = widget.shadowRoot?.querySelector('h2')?.textContent?.trim() || document.title;
  });
}
