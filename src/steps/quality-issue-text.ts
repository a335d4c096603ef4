import type { QualityIssue } from '../api/verify-api.ts';
import type { MessageKey } from '../i18n/en.ts';

/** What to tell the end-user for each server quality issue (same words as the live guidance). */
export const QUALITY_ISSUE_TEXT: Record<QualityIssue, MessageKey> = {
  blurry: 'guideBlurry',
  glare: 'guideGlare',
  too_dark: 'guideTooDark',
  too_small: 'guideTooSmall',
  no_document: 'guideNoDocument',
};
