import { Task } from '@lit/task';
import { html, nothing, type PropertyDeclarations } from 'lit';
import { ConsoleApiError } from '../api/console-api-error.ts';
import type { ResponseOf, Role, Schemas } from '../api/console-api.ts';
import { ROLES } from '../../../domain/capabilities.ts';
import { codeLabel } from '../i18n/localize.ts';
import { BASE, consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { actionKey, badge, type PageCursor, pageCursors, pager, secretOnce } from '../ui/widgets.ts';

type InvitedUser = ResponseOf<'/v1/users', 'post'>;
type TenantUser = Schemas['TenantUser'];

/**
 * `/console/team`: the tenant's console users (`users:write`): invite with a role (the server sends no
 * e-mail: the console shows the one-time invitation link to hand over), change a role, disable or
 * enable, and issue a fresh invitation link.
 */
export class TeamScreen extends ConsoleScreen {
  static override properties: PropertyDeclarations = {
    ...ConsoleScreen.properties,
    invitation: { state: true },
    busy: { state: true },
    formError: { state: true },
    rowError: { state: true },
    message: { state: true },
  };

  declare invitation: InvitedUser | null;
  declare busy: boolean;
  declare formError: unknown;
  declare rowError: { userId: string; error: unknown } | null;
  declare message: string;

  constructor() {
    super();
    this.invitation = null;
    this.busy = false;
    this.formError = null;
    this.rowError = null;
    this.message = '';
  }

  /** Tenant-wide: the same whichever environment is chosen, so never marked as sandbox data. */
  protected override get environmentScoped(): boolean {
    return false;
  }

  /**
   * The page of users the cursor asks for, again after each change. Users belong to the tenant, not to
   * an environment: only the page's cursor reloads it.
   */
  readonly #list = new Task(this, {
    args: () => [this.query.get('starting_after'), this.query.get('ending_before')] as const,
    task: ([startingAfter, endingBefore], { signal }) =>
      this.api.get('/v1/users', {
        signal,
        query: { limit: 50, starting_after: startingAfter, ending_before: endingBefore },
      }),
  });

  /** The link the invited colleague opens; the token rides in the fragment, which no server sees. */
  #invitationLink(token: string): string {
    return `${location.origin}${BASE}/accept-invitation#${encodeURIComponent(token)}`;
  }

  /**
   * The Idempotency-Key of each action whose answer never came (no answer at all, or a 5xx), by what it
   * does: sent again, the same action reuses its key, so an invitation the server made before the answer
   * was lost is replayed, with its link, instead of refused as 409 `email_in_use` (or, for a fresh link,
   * replaced by a third). Any answer, success or refusal, ends the action and forgets its key.
   */
  readonly #unansweredKeys = new Map<string, string>();

  #keyOf(action: string): string {
    let key = this.#unansweredKeys.get(action);
    if (!key) {
      key = actionKey();
      this.#unansweredKeys.set(action, key);
    }
    return key;
  }

  #settle(action: string, error?: unknown): void {
    const unanswered =
      error instanceof ConsoleApiError &&
      (error.status === 0 || error.status >= 500 || error.code === 'idempotency_request_in_progress');
    if (!unanswered) this.#unansweredKeys.delete(action);
  }

  #problemText(error: unknown): unknown {
    if (error instanceof ConsoleApiError && error.code === 'last_tenant_admin')
      return new Error(this.t('lastAdmin'));
    if (error instanceof ConsoleApiError && error.code === 'email_in_use')
      return new Error(this.t('emailInUse'));
    return error;
  }

  async #invite(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const email = String(data.get('email') ?? '').trim();
    if (!email) {
      this.formError = new Error(this.t('fieldRequired'));
      return;
    }
    this.busy = true;
    this.formError = null;
    const role = String(data.get('role')) as Role;
    const action = `invite\n${email.toLowerCase()}\n${role}`;
    try {
      this.invitation = await this.api.post('/v1/users', {
        body: { email, role },
        idempotencyKey: this.#keyOf(action),
      });
      this.#settle(action);
      form.reset();
      await this.#list.run();
      void this.focusAfterRender('idv-copy-field');
    } catch (error) {
      this.#settle(action, error);
      this.formError = this.#problemText(error);
    } finally {
      this.busy = false;
    }
  }

  async #update(user: TenantUser, body: { role?: Role; disabled?: boolean }, message: string): Promise<void> {
    this.busy = true;
    this.rowError = null;
    this.message = '';
    try {
      await this.api.patch('/v1/users/{id}', { params: { id: user.user_id }, body });
      this.message = message;
      await this.#list.run();
    } catch (error) {
      this.rowError = { userId: user.user_id, error: this.#problemText(error) };
    } finally {
      this.busy = false;
    }
  }

  async #reissue(user: TenantUser): Promise<void> {
    this.busy = true;
    this.rowError = null;
    const action = `reissue\n${user.user_id}`;
    try {
      this.invitation = await this.api.post('/v1/users/{id}/invitation', {
        params: { id: user.user_id },
        idempotencyKey: this.#keyOf(action),
      });
      this.#settle(action);
      await this.#list.run();
      void this.focusAfterRender('idv-copy-field');
    } catch (error) {
      this.#settle(action, error);
      this.rowError = { userId: user.user_id, error };
    } finally {
      this.busy = false;
    }
  }

  #changeRole(user: TenantUser, event: SubmitEvent): void {
    event.preventDefault();
    const role = new FormData(event.currentTarget as HTMLFormElement).get('role') as Role;
    if (role && role !== user.role) void this.#update(user, { role }, this.t('roleChanged'));
  }

  #renderUser(user: TenantUser) {
    const t = this.t;
    const self = user.user_id === this.ctx.me?.user.user_id;
    const rowId = `role-${user.user_id}`;
    return html`<tr>
      <th scope="row">
        ${user.email} ${self ? html`<span class="muted">(${t('you')})</span>` : nothing}
        ${
          user.status === 'invited' && user.invitation_expires_at
            ? html`<br /><span class="muted">${t('invitationExpiresAt', { time: this.date(user.invitation_expires_at) })}</span>`
            : nothing
        }
      </th>
      <td>
        <form class="row-actions" @submit=${(event: SubmitEvent) => this.#changeRole(user, event)}>
          <label class="visually-hidden" for=${rowId}>${t('roleOf', { email: user.email })}</label>
          <select id=${rowId} name="role" ?disabled=${user.status === 'disabled'}>
            ${ROLES.map((role) => html`<option value=${role} ?selected=${role === user.role}>${codeLabel(t, 'role_', role)}</option>`)}
          </select>
          <button type="submit" class="secondary small" data-write ?disabled=${this.busy || user.status === 'disabled'}
            aria-label=${`${t('save')}: ${t('roleOf', { email: user.email })}`}>${t('save')}</button>
        </form>
      </td>
      <td>${badge(t, 'userStatus_', user.status)}</td>
      <td>
        <div class="row-actions">
          ${
            user.status === 'disabled'
              ? html`<button type="button" class="secondary small" data-write ?disabled=${this.busy}
                aria-label=${`${t('enableUser')}: ${user.email}`}
                @click=${() => void this.#update(user, { disabled: false }, t('userStatus_active'))}>${t('enableUser')}</button>`
              : self
                ? nothing
                : html`<button type="button" class="secondary small" data-write ?disabled=${this.busy}
                  aria-label=${`${t('disableUser')}: ${user.email}`}
                  @click=${() => void this.#update(user, { disabled: true }, t('userStatus_disabled'))}>${t('disableUser')}</button>`
          }
          ${
            user.status === 'invited'
              ? html`<button type="button" class="secondary small" data-write ?disabled=${this.busy}
                aria-label=${`${t('reissueInvitation')}: ${user.email}`}
                @click=${() => void this.#reissue(user)}>${t('reissueInvitation')}</button>`
              : nothing
          }
        </div>
        ${this.rowError?.userId === user.user_id ? this.renderError(this.rowError.error) : nothing}
      </td>
    </tr>`;
  }

  override render() {
    const t = this.t;
    const list = this.#list.value;
    return html`${this.heading(t('navTeam'))} ${this.renderTask(this.#list)}
      <div role="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${
        this.invitation
          ? secretOnce(
              t,
              this.invitation.email,
              this.#invitationLink(this.invitation.invitation_token),
              t('inviteCreated', { email: this.invitation.email }),
            )
          : nothing
      }
      ${
        list
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">${t('colUser')}</th>
                    <th scope="col">${t('colRole')}</th>
                    <th scope="col">${t('status')}</th>
                    <th scope="col">${t('actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${list.data.map((user) => this.#renderUser(user))}
                </tbody>
              </table>
            </div>
            ${pager(
              t,
              pageCursors(list, this.query, (u) => u.user_id),
              (cursor: PageCursor) => this.navigate(consolePath(['team'], { ...cursor })),
            )}`
          : nothing
      }
      <section aria-labelledby="invite">
        <h2 id="invite">${t('inviteTitle')}</h2>
        <form @submit=${this.#invite}>
          <div class="form-grid">
            <div class="field">
              <label for="invite-email">${t('email')}</label>
              <input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off" />
            </div>
            <div class="field">
              <label for="invite-role">${t('inviteRole')}</label>
              <select id="invite-role" name="role">
                ${ROLES.map((role) => html`<option value=${role} ?selected=${role === 'viewer'}>${codeLabel(t, 'role_', role)}</option>`)}
              </select>
            </div>
          </div>
          ${this.renderError(this.formError)}
          <div class="actions"><button type="submit" data-write ?disabled=${this.busy}>${t('inviteSubmit')}</button></div>
        </form>
      </section>`;
  }
}

if (!customElements.get('idv-team-screen')) customElements.define('idv-team-screen', TeamScreen);
