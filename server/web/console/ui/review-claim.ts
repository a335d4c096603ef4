import { html, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import type { Translate } from '../i18n/localize.ts';

type ReviewClaim = Schemas['ReviewClaim'];

/**
 * A session's claim as the reviewer looking at it sees it: nobody's yet (or a server without claims),
 * theirs (renewed while they work), or another reviewer's (deciding is refused with 409 `review_claimed`
 * until they take it over, which the server audits; `confirming` while the take-over asks to be sure).
 */
export type ClaimState =
  | { kind: 'none' }
  | { kind: 'mine'; claim: ReviewClaim }
  | { kind: 'theirs'; holder: string; until: string | null; confirming: boolean };

export interface ClaimActions {
  /** How a user id reads (an e-mail when known). */
  who: (userId: string) => string;
  date: (iso: string | null) => string;
  busy: boolean;
  onTakeOver: () => void;
  onConfirmTakeOver: () => void;
  onCancelTakeOver: () => void;
  onRelease: () => void;
}

/** The claim ReviewClaim as state, for the user `me`. */
export function claimStateOf(claim: ReviewClaim | null, me: string | undefined): ClaimState {
  if (!claim) return { kind: 'none' };
  if (claim.reviewer_id === me) return { kind: 'mine', claim };
  return { kind: 'theirs', holder: claim.reviewer_id, until: claim.expires_at, confirming: false };
}

/**
 * The claim bar of the review screen: who holds the session, and the one action that fits (release mine,
 * take over theirs after a confirmation that says it is recorded).
 *
 * @example
 *   html`${claimControls(t, this.claim, actions)}`
 */
export function claimControls(t: Translate, state: ClaimState, actions: ClaimActions): TemplateResult {
  if (state.kind === 'none') return html`<div id="claim" class="claim" role="status"></div>`;
  if (state.kind === 'mine') {
    return html`<div id="claim" class="claim notice" role="status">
      <p>${
        state.claim.expires_at === null
          ? t('claimAssignedToYou')
          : t('claimMine', { time: actions.date(state.claim.expires_at) })
      }</p>
      <button type="button" class="secondary small" data-write ?disabled=${actions.busy}
        @click=${actions.onRelease}>${t('claimRelease')}</button>
    </div>`;
  }
  const holder = actions.who(state.holder);
  return html`<div id="claim" class="claim notice bad" role="status">
    <p>${
      state.until === null
        ? t('claimTheirsAssigned', { who: holder })
        : t('claimTheirs', { who: holder, time: actions.date(state.until) })
    }</p>
    ${
      state.confirming
        ? html`<div class="confirm" role="group" aria-labelledby="take-over-question">
          <p id="take-over-question">${t('takeOverConfirm', { who: holder })}</p>
          <div class="actions">
            <button type="button" class="danger small" id="confirm-take-over" data-write
              ?disabled=${actions.busy} @click=${actions.onConfirmTakeOver}>${t('takeOverYes')}</button>
            <button type="button" class="secondary small" @click=${actions.onCancelTakeOver}>${t('cancel')}</button>
          </div>
        </div>`
        : html`<button type="button" class="secondary small" id="take-over" data-write ?disabled=${actions.busy}
          @click=${actions.onTakeOver}>${t('takeOver')}</button>`
    }
  </div>`;
}
