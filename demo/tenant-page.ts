// The shop's page: asks its backend for a verification, then embeds the widget or redirects to the
// hosted page, and shows what the backend learned (from the API and from signed webhooks).
//
// Two builds of the same page: on the real server (`npm start`, `vite build --mode server`, served at
// /demo/) the backend is a real one at /demo/tenant/; offline (`npm run demo:offline`) the mock and the
// backend run behind the Service Worker, started here first. The backend's URLs are relative to the
// page, so /tenant/… offline and /demo/tenant/… on the server.
import '../src/id-verify.ts';

/** Built for the real server: the offline runtime (MSW, PGlite, the mock app) is left out of the bundle. */
const ON_SERVER = import.meta.env.MODE === 'server';

const offline = ON_SERVER ? null : await (await import('./offline-runtime.ts')).startOfflineRuntime();

const backendUrl = (path: string) => new URL(`tenant/${path}`, location.href).toString();

const form = document.querySelector<HTMLFormElement>('#start')!;
// The form stays disabled until the shop backend can answer (offline: until the mock has started).
form.querySelector('fieldset')!.disabled = false;
document.documentElement.dataset['demoReady'] = ON_SERVER ? 'server' : 'offline';
const widgetSection = document.querySelector<HTMLElement>('#widget')!;
const resultSection = document.querySelector<HTMLElement>('#result')!;
const problem = document.querySelector<HTMLElement>('#problem')!;

function showProblem(text: string): void {
  problem.textContent = text;
  problem.hidden = false;
}

async function showResult(sessionId: string): Promise<void> {
  resultSection.hidden = false;
  // The decision and its webhooks come from background workers: poll the shop backend a little while.
  for (let attempt = 0; attempt < 120; attempt++) {
    const response = await fetch(backendUrl(`api/verifications/${encodeURIComponent(sessionId)}`));
    if (!response.ok) {
      showProblem(`The shop backend does not know this verification (${response.status}).`);
      break;
    }
    const record = (await response.json()) as Record<string, unknown>;
    for (const element of resultSection.querySelectorAll<HTMLElement>('[data-field]')) {
      const value = record[element.dataset['field']!];
      element.textContent = Array.isArray(value) ? value.join(', ') || '—' : String(value ?? '—');
    }
    const settled =
      record['verifiedName'] ||
      ['rejected', 'review_required', 'expired', 'cancelled'].includes(String(record['status']));
    // The approval webhook may land a moment after the status: wait for it too, so the page shows it.
    const events = record['events'] as string[];
    if (settled && (record['status'] !== 'approved' || events.includes('session.approved'))) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.hidden = true;
  const data = new FormData(form);
  const mode = (event.submitter as HTMLButtonElement | null)?.value ?? 'embed';
  const response = await fetch(backendUrl('api/verifications'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: data.get('userId'), outcome: String(data.get('outcome') ?? '') }),
  });
  const created = (await response.json()) as { session_id: string; verify_url: string; error?: string };
  if (!response.ok) {
    showProblem(`The shop backend could not start a verification: ${created.error ?? response.status}.`);
    return;
  }
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
  // Offline, the whole "id-verify" is in this browser: forget it. On the server, only start over.
  await offline?.reset();
  for (const key of Object.keys(localStorage))
    if (key.startsWith('id-verify-demo:')) localStorage.removeItem(key);
  location.replace(new URL('./', location.href).toString());
});

// Back from the hosted page: `?session_id=…&status=…` (never trusted; the backend asks the API).
const returned = new URLSearchParams(location.search).get('session_id');
if (returned) await showResult(returned);
