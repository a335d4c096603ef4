export const FLOWS = ['user', 'business'] as const;
export type Flow = (typeof FLOWS)[number];

export const TIERS = ['tier1', 'tier2', 'tier3'] as const;
export type Tier = (typeof TIERS)[number];

export const STEP_NAMES = [
  'consent',
  'id_document',
  'liveness',
  'proof_of_address',
  'business_details',
  'business_document',
] as const;
export type StepName = (typeof STEP_NAMES)[number];

/**
 * Judged tries an end-user gets per step before the session is rejected with `attempts_exhausted`, unless
 * the tenant set its own (`attempts_per_step`, within the bounds below). A refusal for capture quality is
 * not a judged try and costs none.
 */
export const DEFAULT_ATTEMPTS_PER_STEP = 3;
export const MIN_ATTEMPTS_PER_STEP = 1;
export const MAX_ATTEMPTS_PER_STEP = 10;

export interface StepProgress {
  step: StepName;
  status: 'pending' | 'completed';
  attempts_remaining: number;
}

/**
 * The steps a session asks of its end-user (API.md §4 table).
 *
 * @example
 * requiredSteps('user', 'tier2') // ['consent', 'id_document', 'liveness']
 */
export function requiredSteps(flow: Flow, tier: Tier): StepName[] {
  const base: StepName[] =
    flow === 'user'
      ? ['consent', 'id_document']
      : ['consent', 'business_details', 'business_document', 'id_document'];
  if (tier === 'tier1') return base;
  if (tier === 'tier2') return [...base, 'liveness'];
  return [...base, 'liveness', 'proof_of_address'];
}

/**
 * The steps of a new session, each pending with the tenant's attempts.
 *
 * @example
 * initialStepProgress(['consent', 'id_document'], 5) // [{ step: 'consent', status: 'pending', attempts_remaining: 5 }, …]
 */
export function initialStepProgress(
  steps: readonly StepName[],
  attemptsPerStep: number = DEFAULT_ATTEMPTS_PER_STEP,
): StepProgress[] {
  return steps.map((step) => ({ step, status: 'pending', attempts_remaining: attemptsPerStep }));
}

export function missingSteps(progress: readonly StepProgress[]): StepName[] {
  return progress.filter((entry) => entry.status !== 'completed').map((entry) => entry.step);
}
