// The crash loop (crash-loop.ts) on the embedded database, blobs in files.
import { describeCrashLoop } from './crash-loop.ts';

describeCrashLoop('pglite');
