/**
 * The console's entry (server/web/console/index.html, built with `vite build --mode console`): defines
 * `<idv-console>`. Screens and locales are lazy chunks the shell loads per route.
 */
import { IdvConsoleElement } from './console-element.ts';

if (!customElements.get('idv-console')) customElements.define('idv-console', IdvConsoleElement);
