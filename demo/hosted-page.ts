// The hosted page offline: start the mock (same IndexedDB as the tenant page, so the session created
// there is here), then run the real hosted-page script, which reads the token from this URL. Its styles
// are linked from hosted.html, so they apply before this script and the mock have loaded.
import { startOfflineRuntime } from './offline-runtime.ts';

await startOfflineRuntime();
await import('../server/web/hosted/main.ts');
