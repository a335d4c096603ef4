import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CalendarDate,
  compareCalendarDates,
  completedYears,
  parseCalendarDate,
  utcCalendarDate,
} from '../../../server/domain/review/calendar.ts';

const date = (text: string): CalendarDate => {
  const parsed = parseCalendarDate(text);
  assert.ok(parsed, `test date ${text} must parse`);
  return parsed;
};

describe('calendar: reading YYYY-MM-DD', () => {
  const valid: Array<[string, CalendarDate]> = [
    ['1990-04-01', { year: 1990, month: 4, day: 1 }],
    ['2024-02-29', { year: 2024, month: 2, day: 29 }],
    ['2000-02-29', { year: 2000, month: 2, day: 29 }],
    ['0004-02-29', { year: 4, month: 2, day: 29 }],
    ['2025-12-31', { year: 2025, month: 12, day: 31 }],
  ];
  for (const [text, expected] of valid) {
    it(`reads ${text}`, () => assert.deepEqual(parseCalendarDate(text), expected));
  }

  const invalid = [
    '2023-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-1-01',
    '20250101',
    '2025-01-01T00:00:00Z',
    '',
  ];
  for (const text of invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => assert.equal(parseCalendarDate(text), null));
  }
});

describe('calendar: whole years lived', () => {
  const cases: Array<[birth: string, on: string, years: number]> = [
    ['2007-06-15', '2025-06-15', 18],
    ['2007-06-16', '2025-06-15', 17],
    ['2007-06-14', '2025-06-15', 18],
    ['2007-12-31', '2025-01-01', 17],
    ['2008-02-29', '2026-02-28', 17],
    ['2008-02-29', '2026-03-01', 18],
    ['2008-02-29', '2028-02-28', 19],
    ['2008-02-29', '2028-02-29', 20],
    ['2025-06-15', '2025-06-15', 0],
  ];
  for (const [birth, on, years] of cases) {
    it(`counts ${years} years from ${birth} to ${on}`, () => {
      assert.equal(completedYears(date(birth), date(on)), years);
    });
  }
});

describe('calendar: dates of instants and ordering', () => {
  it('takes the UTC date, not the server-local one, of an instant', () => {
    assert.deepEqual(utcCalendarDate(new Date('2025-03-01T23:30:00-05:00')), {
      year: 2025,
      month: 3,
      day: 2,
    });
  });

  it('orders dates by year, then month, then day', () => {
    assert.ok(compareCalendarDates(date('2025-01-31'), date('2025-02-01')) < 0);
    assert.ok(compareCalendarDates(date('2026-01-01'), date('2025-12-31')) > 0);
    assert.equal(compareCalendarDates(date('2025-06-15'), date('2025-06-15')), 0);
  });
});
