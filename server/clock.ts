/** The app's time source: hosts pass `systemClock`, tests a clock they move. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
