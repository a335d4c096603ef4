// The hosted page offline: start the mock (same IndexedDB as the tenant page, so the session created
// there is here), then run the real hosted-page script, which reads the token from this URL.
import '../src/hosted/hosted.css';
import { startOfflineRuntime } from './offline-runtime.ts';

await startOfflineRuntime();
await import('../src/hosted/main.ts');
