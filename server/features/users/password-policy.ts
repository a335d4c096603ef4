import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * Staff passwords per NIST SP 800-63B (rev. 4, 2024, §3.1.1.2): a minimum length, no composition rules
 * (no "one digit, one symbol": they push people to predictable patterns), any character allowed, and a
 * check against a blocklist of common and breached passwords and their obvious variations.
 *
 * - Length: at least 15 characters, NIST's figure for a password that is the only factor. A member
 *   needs only a password unless the tenant requires a second factor, and staff see every end-user's
 *   identity documents and face, so the single-factor figure applies. At most 1024 (NIST: allow ≥ 64).
 *   Characters are Unicode code points, as NIST counts them ('é' is one, an emoji is one).
 * - Blocklist: the 49,233 common passwords from breach corpora that @zxcvbn-ts/language-common ships
 *   and the pattern matching of @zxcvbn-ts/core (both loaded from node_modules, nothing fetched): those
 *   passwords and their l33t, reversed or padded forms, keyboard walks, sequences, repeats, dates. A
 *   password whose estimated guesses stay below 10^10 (zxcvbn score < 4) is refused: at 15 characters
 *   that refuses `Password123456!!` and `Welcome2024!2024` (10^8 and 10^9.9) and no passphrase of three
 *   or four unrelated words.
 * - And what an attacker aiming at this account tries first: one character repeated, the e-mail address
 *   or its local part, the tenant's name.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 1024;

/** zxcvbn's score 4, "very unguessable: strong protection from offline slow-hash scenario" (≥ 10^10 guesses). */
const MIN_SCORE = 4;

/** Why a password is refused; the API answers it as `password_rule` beside a sentence saying the same. */
export type PasswordRule =
  | 'too_short'
  | 'too_long'
  | 'repeated_character'
  | 'contains_email'
  | 'contains_tenant_name'
  | 'common_password';

export interface PasswordRefusal {
  rule: PasswordRule;
  detail: string;
}

export interface PasswordContext {
  /** The account's e-mail address. */
  email: string;
  /** The tenant's display name. */
  tenantName: string;
}

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Loaded on first use (about 0.8 MB of lists and code): server start and the browser mock's first load do
 * not pay for them, and most requests never need them.
 */
function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) =>
      new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
  );
  return estimator;
}

/** Parts of a value long enough that finding them in a password means something (not "a" or "io"). */
function significantParts(value: string): string[] {
  return value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => part.length >= 4);
}

/**
 * Null when the password may be used, else the rule it breaks with a sentence for the person choosing it.
 *
 * @example
 * (await checkPassword('aaaaaaaaaaaaaaaa', { email: 'ana@acme.test', tenantName: 'Acme' }))?.rule // 'repeated_character'
 * await checkPassword('stapler orbit velvet canyon', { email: 'ana@acme.test', tenantName: 'Acme' }) // null
 */
export async function checkPassword(
  password: string,
  context: PasswordContext,
): Promise<PasswordRefusal | null> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return {
      rule: 'too_short',
      detail: `Use at least ${PASSWORD_MIN_LENGTH} characters (this has ${length}). A few unrelated words make a long password easy to remember.`,
    };
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return { rule: 'too_long', detail: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
  }
  if (new Set(password).size === 1) {
    return { rule: 'repeated_character', detail: 'A single character repeated is among the first guesses.' };
  }
  const lower = password.toLowerCase();
  const email = context.email.trim().toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  if (lower.includes(email) || (localPart.length >= 4 && lower.includes(localPart))) {
    return {
      rule: 'contains_email',
      detail: 'Do not use your e-mail address or its name part in the password.',
    };
  }
  const compactLower = lower.replace(/[^\p{L}\p{N}]+/gu, '');
  const compactTenant = context.tenantName.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (
    (compactTenant.length >= 4 && compactLower.includes(compactTenant)) ||
    significantParts(context.tenantName).some((part) => lower.includes(part))
  ) {
    return { rule: 'contains_tenant_name', detail: "Do not use your organisation's name in the password." };
  }
  const estimate = (await strengthEstimator()).check(password, [email, localPart, context.tenantName]);
  if (estimate.score < MIN_SCORE) {
    const why = estimate.feedback.warning ? ` (${describeWarning(estimate.feedback.warning)})` : '';
    return {
      rule: 'common_password',
      detail: `This password is on a list of common or breached passwords, or is a simple variation of one${why}: choose another.`,
    };
  }
  return null;
}

/** zxcvbn-ts's warnings are translation keys (no language pack is loaded): a few words for each. */
function describeWarning(key: string): string {
  const words: Record<string, string> = {
    straightRow: 'a row of keys',
    keyPattern: 'a keyboard pattern',
    simpleRepeat: 'a repeated character',
    extendedRepeat: 'a repeated pattern',
    sequences: 'a sequence like abc or 123',
    recentYears: 'a recent year',
    dates: 'a date',
    topTen: 'one of the ten most used passwords',
    topHundred: 'one of the hundred most used passwords',
    common: 'a common password',
    similarToCommon: 'close to a common password',
    wordByItself: 'a single word',
    namesByThemselves: 'a name',
    commonNames: 'a common name',
    userInputs: 'your own details',
    pwned: 'a breached password',
  };
  return words[key] ?? 'an easily guessed pattern';
}
