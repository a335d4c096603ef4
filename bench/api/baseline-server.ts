// The baseline the API benchmark compares against: a bare node:http server that reads the request body
// and answers with a fixed JSON body of the same size as the real response. The gap between it and the
// real server is the cost of everything we do per request (auth, validation, database, encryption).
import { createServer } from 'node:http';

const body = process.env['BASELINE_BODY'] ?? '{}';
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
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
