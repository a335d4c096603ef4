import type { AppDeps } from '../../app-deps.ts';
import { sessionsWithoutNameIndex } from '../../store/session-name-tokens.ts';
import { evidenceCollectorOf } from '../review/evidence-collector.ts';
import { indexSessionNames } from './name-tokens.ts';

const BATCH = 100;

/**
 * Writes the name index of reviewed sessions that have none: those reviewed before migration 017, whose
 * names the review read when nothing indexed them. Reads each session's evidence as the review does and
 * indexes the names it finds; a session whose evidence retention already deleted stays unindexed, as it
 * holds no name to find. Safe to run again and while the server runs (new reviews index themselves).
 * Answers how many sessions it looked at and how many it indexed.
 *
 * @example await backfillNameIndex(deps) // { examined: 1200, indexed: 1150 }
 */
export async function backfillNameIndex(deps: AppDeps): Promise<{ examined: number; indexed: number }> {
  let afterId = '';
  let examined = 0;
  let indexed = 0;
  for (;;) {
    const sessions = await sessionsWithoutNameIndex(deps.db, afterId, BATCH);
    for (const session of sessions) {
      examined += 1;
      const evidence = await evidenceCollectorOf(deps)(deps.db, deps, session);
      const wrote = await deps.db.transaction((tx) => indexSessionNames(tx, deps, session.id, evidence));
      if (wrote) indexed += 1;
    }
    const last = sessions.at(-1);
    if (!last || sessions.length < BATCH) return { examined, indexed };
    afterId = last.id;
  }
}
