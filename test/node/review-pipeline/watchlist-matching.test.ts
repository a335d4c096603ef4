import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  jaroWinkler,
  nameSimilarity,
  nameTokens,
  screenWatchlist,
  WATCHLIST_THRESHOLD,
} from '../../../server/domain/watchlist.ts';
import { SAMPLE_WATCHLIST } from '../../../server/domain/watchlist-sample.ts';

describe('watchlist name matching', () => {
  it('folds diacritics, case, punctuation, apostrophes and MRZ fillers into tokens', () => {
    assert.deepEqual(nameTokens('  Ångström-Núñez, José '), ['angstrom', 'nunez', 'jose']);
    assert.deepEqual(nameTokens('ERIKSSON<<ANNA<MARIA'), ['eriksson', 'anna', 'maria']);
    assert.deepEqual(nameTokens("O'Brien"), ['obrien']);
    assert.deepEqual(nameTokens('Straße Łukasz'), ['strasse', 'lukasz']);
  });

  it('scores the classic Jaro-Winkler example', () => {
    assert.ok(Math.abs(jaroWinkler('martha', 'marhta') - 0.961) < 0.001);
    assert.equal(jaroWinkler('same', 'same'), 1);
    assert.equal(jaroWinkler('', 'x'), 0);
  });

  it('matches regardless of token order, diacritics and case', () => {
    assert.equal(nameSimilarity('FICTITIOUS, Ivan', 'Ivan Fictitious'), 1);
    assert.equal(nameSimilarity('Jose Nono Inventado', 'José Ñoño Inventado'), 1);
    assert.equal(nameSimilarity('zoe nonexistent', 'Zoë Nonexistent'), 1);
  });

  it('tolerates a small edit distance and transliteration variants above the threshold', () => {
    assert.ok(nameSimilarity('Ivan Fictitous', 'FICTITIOUS, Ivan') >= 0.95);
    assert.ok(nameSimilarity('Olexandr Madeup', 'Oleksandr Madeup-Placeholder') >= WATCHLIST_THRESHOLD);
    assert.ok(nameSimilarity('Ivan Fictitious', 'Ivan Petrovich Fictitious') === 1, 'extra middle name');
  });

  it('keeps a relative with the same surname but another given name below the threshold', () => {
    for (const given of ['Anna', 'Maria']) {
      const score = nameSimilarity(`${given} Fictitious`, 'FICTITIOUS, Ivan');
      assert.ok(score <= 0.8, `${given}: ${score}`);
    }
    assert.ok(nameSimilarity('Jane Doe', 'FICTITIOUS, Ivan') < 0.5);
  });

  it('does not let a lone given name match a full listed name', () => {
    assert.ok(nameSimilarity('Ivan', 'Ivan Fictitious') < WATCHLIST_THRESHOLD);
    assert.equal(nameSimilarity('Mc Donald', 'McDonald'), 1, 'names written together still match');
  });
});

describe('watchlist screening', () => {
  it('finds a listed person by an alias and reports the list and score', () => {
    const { hits } = screenWatchlist({ first_name: 'Vanya', last_name: 'Fictitious' }, SAMPLE_WATCHLIST);
    assert.equal(hits.length, 1);
    assert.equal(hits[0]?.entry.list, 'sample-sanctions');
    assert.equal(hits[0]?.matchedName, 'Vanya Fictitious');
    assert.equal(hits[0]?.dateOfBirth, 'unknown');
  });

  it('rules out a namesake whose known birth date disagrees, at the precision the list has', () => {
    const namesake = { first_name: 'Ivan', last_name: 'Fictitious', date_of_birth: '1980-01-01' };
    assert.equal(screenWatchlist(namesake, SAMPLE_WATCHLIST).hits.length, 0);
    const same = { ...namesake, date_of_birth: '1971-04-01' };
    assert.equal(screenWatchlist(same, SAMPLE_WATCHLIST).hits[0]?.dateOfBirth, 'match');
    const yearOnly = { first_name: 'José', last_name: 'Ñoño Inventado', date_of_birth: '1980-06-30' };
    assert.equal(screenWatchlist(yearOnly, SAMPLE_WATCHLIST).hits.length, 1, 'the list knows only 1980');
  });

  it('returns hits best first and nothing for an unlisted person', () => {
    const entries = [
      { name: 'Ivan Fictitous', list: 'typo' },
      { name: 'Ivan Fictitious', list: 'exact' },
    ];
    const { hits } = screenWatchlist({ first_name: 'Ivan', last_name: 'Fictitious' }, entries);
    assert.deepEqual(
      hits.map((hit) => hit.entry.list),
      ['exact', 'typo'],
    );
    assert.equal(screenWatchlist({ first_name: 'Jane', last_name: 'Doe' }, SAMPLE_WATCHLIST).hits.length, 0);
  });
});
