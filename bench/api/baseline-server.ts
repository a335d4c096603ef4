// The baselines the API benchmark compares against: a bare node:http server that reads the request body
// and answers with a fixed JSON body of the same size as the real response. The gap between it and the
// real server is the cost of everything we do per request (auth, validation, database, encryption).
//
// With BASELINE_DATABASE_URL (PostgreSQL) or BASELINE_PGLITE_DIR, it also runs the one statement the real
// server's request needs (`select * from sessions where id = $1`, or an insert for POST) before
// answering: that separates what the database round trip costs on this machine from what our code costs.
import { createServer } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const body = process.env['BASELINE_BODY'] ?? '{}';
const sessionId = process.env['BASELINE_SESSION_ID'] ?? '';

type Query = (text: string, params: unknown[]) => Promise<unknown>;
let query: Query | undefined;
if (process.env['BASELINE_DATABASE_URL']) {
  const pool = new pg.Pool({ connectionString: process.env['BASELINE_DATABASE_URL'], max: 10 });
  query = (text, params) => pool.query(text, params);
} else if (process.env['BASELINE_PGLITE_DIR']) {
  const db = await PGlite.create(process.env['BASELINE_PGLITE_DIR']);
  query = (text, params) => db.query(text, params);
}

// The write a create needs at minimum: one row into a table shaped like the real one.
if (query) await query('create table if not exists baseline_writes (id text, payload jsonb)', []);

const server = createServer((request, response) => {
  request.resume();
  request.on('end', async () => {
    if (query) {
      if (request.method === 'POST') {
        await query('insert into baseline_writes (id, payload) values ($1, $2)', [crypto.randomUUID(), body]);
      } else {
        await query('select * from sessions where id = $1', [sessionId]);
      }
    }
    response.writeHead(request.method === 'POST' ? 201 : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `API: http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
