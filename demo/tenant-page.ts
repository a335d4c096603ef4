// The shop's page: asks its backend for a verification, then embeds the widget or redirects to the
// hosted page, and shows what the backend learned (from the API and from signed webhooks).
import '../src/id-verify.ts';
import type { ForcedOutcome } from '../mock/index.ts';
import { startOfflineRuntime } from './offline-runtime.ts';

const running = await startOfflineRuntime();

const form = document.querySelector<HTMLFormElement>('#start')!;
// The form stays disabled until the mock and the shop backend answer.
form.querySelector('fieldset')!.disabled = false;
const widgetSection = document.querySelector<HTMLElement>('#widget')!;
const resultSection = document.querySelector<HTMLElement>('#result')!;

async function showResult(sessionId: string): Promise<void> {
  resultSection.hidden = false;
  // The decision and its webhooks come from background workers: poll the shop backend a little while.
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await fetch(`/tenant/api/verifications/${encodeURIComponent(sessionId)}`);
    if (!response.ok) break;
    const record = (await response.json()) as Record<string, unknown>;
    for (const element of resultSection.querySelectorAll<HTMLElement>('[data-field]')) {
      const value = record[element.dataset['field']!];
      element.textContent = Array.isArray(value) ? value.join(', ') || '—' : String(value ?? '—');
    }
    if (
      record['verifiedName'] ||
      ['rejected', 'review_required', 'expired', 'cancelled'].includes(String(record['status']))
    ) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const mode = (event.submitter as HTMLButtonElement | null)?.value ?? 'embed';
  const outcome = String(data.get('outcome') ?? '');
  running.scenarios.forceOutcome(outcome === '' ? null : (outcome as ForcedOutcome));
  const response = await fetch('/tenant/api/verifications', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: data.get('userId') }),
  });
  const created = (await response.json()) as { session_id: string; verify_url: string };
  if (mode === 'redirect') {
    location.assign(created.verify_url);
    return;
  }
  const widget = document.createElement('id-verify');
  widget.setAttribute('verify-url', created.verify_url);
  widget.addEventListener('idv-complete', () => void showResult(created.session_id));
  widgetSection.replaceChildren(widget);
  widgetSection.hidden = false;
});

document.querySelector('#reset')?.addEventListener('click', async () => {
  await running.reset();
  for (const key of Object.keys(localStorage))
    if (key.startsWith('id-verify-demo:')) localStorage.removeItem(key);
  location.replace('/');
});

// Back from the hosted page: `?session_id=…&status=…` (never trusted; the backend asks the API).
const returned = new URLSearchParams(location.search).get('session_id');
if (returned) await showResult(returned);
