/**
 * The script-tag bundle (`/sdk/id-verify.js`): one file that registers `<id-verify>`; locales and the
 * liveness step load on demand as chunks beside it.
 *
 * @example
 *   <script type="module" src="https://verify.example.com/sdk/id-verify.js"></script>
 *   <id-verify verify-url="…"></id-verify>
 */
import './id-verify.ts';
