import type { StepId } from '../api/verify-api.ts';
import type { MessageKey } from '../i18n/en.ts';

/** Message key of each step's name (progress announcements, the review list). */
export const STEP_TITLE: Record<StepId | 'review', MessageKey> = {
  consent: 'stepConsent',
  id_document: 'stepIdDocument',
  liveness: 'stepLiveness',
  proof_of_address: 'stepProofOfAddress',
  business_details: 'stepBusinessDetails',
  business_document: 'stepBusinessDocument',
  review: 'stepReview',
};
