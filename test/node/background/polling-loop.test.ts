import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPollingLoop } from '../../../server/workers/polling-loop.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the background polling loop', () => {
  it('never overlaps rounds, keeps going after a failure (logging only the class), and stop waits', async () => {
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    const logged: Record<string, unknown>[] = [];
    const loop = createPollingLoop({
      name: 'test loop',
      round: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        rounds += 1;
        await pause(5);
        active -= 1;
        if (rounds === 2) throw new TypeError('secret detail from a driver');
        return rounds;
      },
      pauseAfter: () => 1,
      pauseAfterError: 1,
      logger: { info: () => {}, error: (message, fields) => logged.push({ message, ...fields }) },
    });
    loop.start();
    loop.start(); // idempotent: still one chain of rounds
    await pause(60);
    await loop.stop();
    const stoppedAt = rounds;
    assert.equal(active, 0, 'stop waited for the round in flight');
    assert.equal(maxActive, 1);
    assert.ok(rounds >= 3, `expected rounds after the failure, got ${rounds}`);
    assert.deepEqual(logged, [{ message: 'test loop failed', error: 'TypeError' }]);
    await pause(20);
    assert.equal(rounds, stoppedAt, 'no round after stop');
  });

  it('backs off by the count of failures in a row, and counts again from 1 after a success', async () => {
    const outcomes = ['fail', 'fail', 'fail', 'ok', 'fail'];
    const counts: number[] = [];
    let rounds = 0;
    const loop = createPollingLoop({
      name: 'flaky loop',
      round: async () => {
        const outcome = outcomes[rounds++] ?? 'ok';
        if (outcome === 'fail') throw new Error('database unavailable');
      },
      pauseAfter: () => 1,
      pauseAfterError: (failures) => {
        counts.push(failures);
        return 1;
      },
    });
    loop.start();
    await until(() => rounds > outcomes.length);
    await loop.stop();
    assert.deepEqual(counts, [1, 2, 3, 1]);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await pause(2);
  assert.ok(condition(), 'the loop did not get there');
}
