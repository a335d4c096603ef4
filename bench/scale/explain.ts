import type pg from 'pg';
import { type RecordedQuery, rolledBack } from './recording-client.ts';

/** Tables the seed fills with rows in proportion to the sessions: a Seq Scan on one of them grows. */
const LARGE_TABLES = new Set([
  'sessions',
  'events',
  'webhook_deliveries',
  'review_jobs',
  'identities',
  'audit_events',
]);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

export interface StatementPlan {
  /** Node types top-down, with the relation or index they read: `Index Scan(sessions_by_scope)`. */
  nodes: string[];
  /** Large tables read by a Seq Scan. */
  seqScans: string[];
  /** Seq Scans of small tables (tenants, webhooks): the planner's right choice, reported but not flagged. */
  smallSeqScans: string[];
  executionMs: number;
  sharedHit: number;
  sharedRead: number;
}

function walk(node: PlanNode, plan: StatementPlan): void {
  const type = node['Node Type'];
  const target = node['Index Name'] ?? node['Relation Name'];
  plan.nodes.push(target ? `${type}(${target})` : type);
  if (type === 'Seq Scan' && node['Relation Name']) {
    (LARGE_TABLES.has(node['Relation Name']) ? plan.seqScans : plan.smallSeqScans).push(
      node['Relation Name'],
    );
  }
  for (const child of node.Plans ?? []) walk(child, plan);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of one recorded statement with its own parameters, run `runs` times (the
 * first warms the cache) inside a transaction that is rolled back, so claims and deletes change nothing.
 * Reports the median execution time and the last run's plan. A statement slower than a second is run
 * once: it is slow either way, and three runs of a minute-long purge would stall the bench.
 */
export async function explainStatement(
  client: pg.Client,
  statement: RecordedQuery,
  runs = 3,
): Promise<StatementPlan> {
  const times: number[] = [];
  let last: { Plan: PlanNode & { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number } } | undefined;
  for (let run = 0; run < runs; run++) {
    const root = await rolledBack(client, async () => {
      const { rows } = await client.query<{ 'QUERY PLAN': [typeof last & { 'Execution Time': number }] }>(
        `explain (analyze, buffers, format json) ${statement.text}`,
        statement.params as unknown[],
      );
      return rows[0]?.['QUERY PLAN'][0];
    });
    if (!root) throw new Error('EXPLAIN returned no plan');
    times.push(root['Execution Time']);
    last = root;
    if (root['Execution Time'] > 1000) break;
  }
  const plan: StatementPlan = {
    nodes: [],
    seqScans: [],
    smallSeqScans: [],
    executionMs: median(times),
    sharedHit: last?.Plan['Shared Hit Blocks'] ?? 0,
    sharedRead: last?.Plan['Shared Read Blocks'] ?? 0,
  };
  if (last) walk(last.Plan, plan);
  return plan;
}
