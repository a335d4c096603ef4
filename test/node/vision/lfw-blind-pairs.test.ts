import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  blindPairs,
  blindPeople,
  faceSetPeople,
  PHOTOS_PER_PERSON,
} from '../../../bench/accuracy/lfw-blind-pairs.ts';
import { faceAcquirer, type Acquired } from '../../../bench/accuracy/faces.ts';
import type { VisionEngine } from '../../../server/features/vision/vision-engine.ts';

// Lists only: the images are empty files, no model runs.
describe("LFW without the face set's people (bench/accuracy/lfw-blind-pairs.ts)", () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'idv-lfw-blind-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("names the repository's face set people as LFW spells them, without case", () => {
    const people = faceSetPeople();
    assert.ok(people.has('arnold_schwarzenegger'));
    assert.ok(people.has('angelina_jolie'));
    assert.ok(!people.has('abel_pacheco'));
  });

  it('drops every pair that shows one of them, on either side, and counts what it kept', () => {
    const text = [
      '10\t300',
      'Arnold_Schwarzenegger\t1\t2',
      'Abel_Pacheco\t1\t4',
      'Dean_Barker\t1\tTony_Blair\t3',
      'Tony_Blair\t2\tDean_Barker\t1',
      'Abel_Pacheco\t2\tDean_Barker  1',
      '',
    ].join('\n');
    assert.deepEqual(blindPairs(text, new Set(['arnold_schwarzenegger', 'tony_blair'])), {
      kept: ['Abel_Pacheco\t1\t4', 'Abel_Pacheco\t2\tDean_Barker\t1'],
      same: 1,
      different: 1,
      dropped: 3,
    });
  });

  it('refuses a line that is neither kind of pair, naming the line', () => {
    assert.throws(
      () => blindPairs('1\nAbel_Pacheco\t1\n', new Set()),
      /line 2: expected 3 fields \(same person\) or 4/,
    );
  });

  it('takes the people with enough photos for a session, their first photos, not the excluded', () => {
    const images = join(root, 'lfw');
    const photos = (name: string, count: number) => {
      mkdirSync(join(images, name), { recursive: true });
      for (let n = count; n >= 1; n--)
        writeFileSync(join(images, name, `${name}_${String(n).padStart(4, '0')}.jpg`), '');
    };
    photos('Zoe_Ball', PHOTOS_PER_PERSON + 2);
    photos('Abel_Pacheco', PHOTOS_PER_PERSON);
    photos('Dean_Barker', PHOTOS_PER_PERSON - 1);
    photos('Tony_Blair', PHOTOS_PER_PERSON + 5);
    const people = blindPeople(images, new Set(['tony_blair']));
    assert.deepEqual(
      people.map((person) => person.name),
      ['Abel_Pacheco', 'Zoe_Ball'],
    );
    assert.deepEqual(people[1]?.photos, [
      'Zoe_Ball_0001.jpg',
      'Zoe_Ball_0002.jpg',
      'Zoe_Ball_0003.jpg',
      'Zoe_Ball_0004.jpg',
    ]);
  });
});

describe("the bench's stored face readings (bench/accuracy/faces.ts)", () => {
  it('takes a stored reading instead of reading the image again, and gives back every reading', async () => {
    const stored: Acquired = {
      ok: false,
      reason: 'no_face',
      sample: { detected: 0 } as unknown as Acquired['sample'],
      space: null,
      engine: null,
    };
    const engine = {
      analyzeFaces: () => {
        throw new Error('the engine must not be asked');
      },
    } as unknown as VisionEngine;
    const image = { path: '/nowhere/a.jpg', source: { kind: 'selfie' }, person: 'a', label: 'a' } as const;
    const acquire = faceAcquirer(engine, new Map([['selfie:/nowhere/a.jpg', stored]]));
    assert.equal(await acquire(image), stored);
    assert.deepEqual([...(await acquire.readings())], [['selfie:/nowhere/a.jpg', stored]]);
  });
});
