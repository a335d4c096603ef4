import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENGINES, missingReason, parseEngines, selectEngines } from '../../support-server/engines.ts';

describe('browser engine selection (IDV_BROWSERS)', () => {
  it('reads a comma-separated list in any case, once each', () => {
    assert.deepEqual(parseEngines('firefox, WebKit,firefox'), ['firefox', 'webkit']);
  });

  it('refuses names it does not know and an empty list, naming the valid ones', () => {
    assert.throws(() => parseEngines('chromium,safari'), /chromium, firefox, webkit/);
    assert.throws(() => parseEngines(' , '), /chromium, firefox, webkit/);
  });

  it('unset, runs every installed engine and says how to install each missing one', () => {
    const { engines, skipped } = selectEngines('');
    assert.deepEqual(
      engines,
      ENGINES.filter((engine) => !missingReason(engine)),
    );
    assert.equal(engines.length + skipped.length, ENGINES.length);
    for (const reason of skipped) assert.match(reason, /skipped: .*apt-get install -y/);
  });

  it('named, a missing engine fails the run; unset, it is skipped with the package to install', () => {
    // WEBKIT_MINIBROWSER_PATH, when set, is the only place MiniBrowser is looked for.
    const saved = process.env['WEBKIT_MINIBROWSER_PATH'];
    process.env['WEBKIT_MINIBROWSER_PATH'] = '/nonexistent/MiniBrowser';
    try {
      assert.throws(() => selectEngines('chromium,webkit'), /lacks:\n.*apt-get install -y webkit2gtk-driver/);
      const unset = selectEngines('');
      assert.equal(unset.engines.includes('webkit'), false);
      assert.ok(unset.skipped.some((reason) => /^webkit skipped: .*webkit2gtk-driver/.test(reason)));
    } finally {
      if (saved === undefined) delete process.env['WEBKIT_MINIBROWSER_PATH'];
      else process.env['WEBKIT_MINIBROWSER_PATH'] = saved;
    }
  });
});
