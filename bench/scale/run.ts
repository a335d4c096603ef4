/**
 * Scale bench (issue #13, "Scale with data"): seeds a fresh PostgreSQL database to 10 k, 100 k and 1 M
 * sessions (with their events, webhook deliveries, review jobs, identities and audit events; see seed.ts)
 * and, at each size, EXPLAIN (ANALYZE, BUFFERS)es the SQL that the real store functions send for the API's
 * reads and every background worker's polling round (scenarios.ts). It prints one table per size: plan
 * nodes, Seq Scans of large tables (flagged), and execution time.
 *
 *   npm run bench:scale                          # 10 k, 100 k, 1 M on the full schema
 *   npm run bench:scale -- --sizes=10000,100000  # other sizes
 *   npm run bench:scale -- --before-after=12     # each size without migration 012, then with it
 *   npm run bench:scale -- --keep                # leave the database for psql (its name is printed)
 *   npm run bench:scale -- --only=stats --runs=21  # only the scenarios whose name has "stats", median of 21
 *
 * Needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust) or SCALE_DATABASE_URL; the database it creates
 * is dropped at the end, also after a failure.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { postgresDatabase } from '../../server/runtime/node/pg-database.ts';
import { migrate } from '../../server/store/migrate.ts';
import { MIGRATIONS } from '../../server/store/migrations/index.ts';
import { explainStatement, type StatementPlan } from './explain.ts';
import { recordingClient, rolledBack } from './recording-client.ts';
import { type Scenario, scenarios } from './scenarios.ts';
import { seedSessions, seedTenants } from './seed.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    'before-after': { type: 'string' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const sizes = (values.sizes ?? '').split(',').map(Number);
const compareVersion = values['before-after'] === undefined ? undefined : Number(values['before-after']);
const adminUrl = process.env['SCALE_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `idv_scale_${process.pid}`;
/** Substrings of scenario names to measure (all when absent): a re-measurement needs no other query. */
const only = values.only?.split(',').filter(Boolean);
/** EXPLAIN ANALYZE runs per statement (median): more of them steady the times on a busy machine. */
const runs = Math.max(1, Number(values.runs));

interface ScenarioResult {
  name: string;
  kind: Scenario['kind'];
  statements: StatementPlan[];
}

async function measure(client: pg.Client): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const all = await scenarios(client);
  for (const scenario of only ? all.filter((s) => only.some((part) => s.name.includes(part))) : all) {
    const { sql, recorded } = recordingClient(client);
    await rolledBack(client, () => scenario.run(sql));
    const statements: StatementPlan[] = [];
    for (const statement of recorded) statements.push(await explainStatement(client, statement, runs));
    results.push({ name: scenario.name, kind: scenario.kind, statements });
  }
  return results;
}

const totalMs = (result: ScenarioResult) =>
  result.statements.reduce((sum, plan) => sum + plan.executionMs, 0);
/** Pages read (shared hit + read): unlike the time, the same on a busy machine and an idle one. */
const pagesOf = (result: ScenarioResult) =>
  result.statements.reduce((sum, plan) => sum + plan.sharedHit + plan.sharedRead, 0);
const seqOf = (result: ScenarioResult) => [...new Set(result.statements.flatMap((plan) => plan.seqScans))];
/** Compact plan: each statement's nodes (Limit, Sort, … left out when an index does the work). */
const planOf = (result: ScenarioResult) =>
  result.statements
    .map((plan) =>
      plan.nodes.filter((node) => !/^(Limit|Result|Aggregate|CTE Scan|Subquery Scan)/.test(node)),
    )
    .map((nodes) => [...new Set(nodes)].join(' → '))
    .join(' ; ');

function table(size: number, results: ScenarioResult[], before?: ScenarioResult[]): string {
  const lines = [`### ${size.toLocaleString('en')} sessions`, ''];
  if (before) {
    lines.push(
      '| query | before ms | after ms | pages before | pages after | seq scan before | seq scan after | plan after |',
    );
    lines.push('|---|---:|---:|---:|---:|---|---|---|');
  } else {
    lines.push('| query | kind | ms | pages | seq scan | plan |', '|---|---|---:|---:|---|---|');
  }
  results.forEach((result, i) => {
    const seq = seqOf(result);
    const flag = seq.length ? `**SEQ ${seq.join(', ')}**` : 'none';
    if (before) {
      const old = before[i] as ScenarioResult;
      const oldSeq = seqOf(old);
      lines.push(
        `| ${result.name} | ${totalMs(old).toFixed(2)} | ${totalMs(result).toFixed(2)} | ${pagesOf(old)} | ${pagesOf(result)} | ${
          oldSeq.length ? `**SEQ ${oldSeq.join(', ')}**` : 'none'
        } | ${flag} | ${planOf(result)} |`,
      );
    } else {
      lines.push(
        `| ${result.name} | ${result.kind} | ${totalMs(result).toFixed(2)} | ${pagesOf(result)} | ${flag} | ${planOf(result)} |`,
      );
    }
  });
  return lines.join('\n');
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    const migrations =
      compareVersion === undefined ? MIGRATIONS : MIGRATIONS.filter((m) => m.version !== compareVersion);
    const compared = MIGRATIONS.find((m) => m.version === compareVersion);
    if (compareVersion !== undefined && !compared) throw new Error(`no migration ${compareVersion}`);
    const pool = postgresDatabase(url.toString(), { max: 1 });
    await migrate(pool, migrations);
    await pool.close();
    await client.connect();
    // Seeding only: the bench's data need not survive a crash, and the WAL flushes would dominate.
    await client.query('set synchronous_commit = off');
    await seedTenants(client);
    let seeded = 0;
    for (const size of sizes) {
      const started = performance.now();
      const counts = await seedSessions(client, seeded, size);
      seeded = size;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const totals = await client.query<Record<string, number>>(
        `select (select count(*) from sessions)::int as sessions, (select count(*) from events)::int as events,
                (select count(*) from webhook_deliveries)::int as deliveries,
                (select count(*) from review_jobs)::int as review_jobs,
                (select count(*) from identities)::int as identities,
                (select count(*) from audit_events)::int as audit_events,
                pg_size_pretty(pg_database_size(current_database())) as size`,
      );
      console.log(
        `\nseeded +${counts.sessions} sessions in ${seconds} s; totals ${JSON.stringify(totals.rows[0])}`,
      );
      const results = await measure(client);
      if (compared) {
        // Apply the compared migration inside a transaction, measure, and roll it back, so the next size
        // is seeded and measured on the schema before it again (indexes it drops come back too).
        const after = await rolledBack(client, async () => {
          const indexStarted = performance.now();
          await client.query(compared.sql);
          await client.query('analyze');
          console.log(
            `(migration ${compared.version} applied in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s)\n`,
          );
          return measure(client);
        });
        console.log(table(size, after, results));
      } else {
        console.log();
        console.log(table(size, results));
      }
    }
  } finally {
    await client.end().catch(() => {});
    if (values.keep) console.log(`\nkept database ${dbName}: drop database ${dbName} with (force)`);
    else await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

await main();
