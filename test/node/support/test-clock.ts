import type { Clock } from '../../../server/clock.ts';

/** A clock tests move by hand: expiry, lockouts and token lifetimes run in microseconds. */
export class TestClock implements Clock {
  #now: number;

  constructor(start = Date.now()) {
    this.#now = start;
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
