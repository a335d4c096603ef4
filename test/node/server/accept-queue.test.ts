import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { waitingInAcceptQueue } from '../../../server/runtime/node/accept-queue.ts';

describe('the kernel’s accept queue of a listener', {
  skip: process.platform === 'linux' ? false : 'only Linux’s socket tables say',
}, () => {
  it('counts the connections queued and not yet taken by the event loop, and none once taken', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    assert.equal(waitingInAcceptQueue(port), 0);
    const taken = new Promise<void>((resolve) => {
      let count = 0;
      server.on('connection', () => {
        count += 1;
        if (count === 3) resolve();
      });
    });
    const clients: Socket[] = Array.from({ length: 3 }, () => connect(port, '127.0.0.1'));
    // The connects run on the next tick; loopback handshakes complete in the kernel at once, and no poll
    // phase has run since: all three wait in the queue.
    await new Promise((resolve) => process.nextTick(resolve));
    assert.equal(waitingInAcceptQueue(port), 3);
    await taken;
    assert.equal(waitingInAcceptQueue(port), 0);
    for (const client of clients) client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is 0 for a port nothing listens on', () => {
    assert.equal(waitingInAcceptQueue(1), 0);
  });
});
