import type { StepId } from '../api/verify-api.ts';

/** Screen names as `idv-step-change` reports them: the flow screens plus the shell's own. */
export interface StepChangeDetail {
  from: string;
  to: string;
  /** The required step the new screen belongs to, `review`, or null for loading/result/error screens. */
  step: StepId | 'review' | null;
  /** 1-based, with `total`; 0 when the screen is not part of the step count. */
  index: number;
  total: number;
}
