import { Task } from '@lit/task';
import { html, nothing } from 'lit';
import { codeLabel } from '../i18n/localize.ts';
import { consolePath } from '../routing/console-path.ts';
import { ConsoleScreen } from '../ui/console-screen.ts';
import { badge, formQuery, type PageCursor, pageCursors, pager } from '../ui/widgets.ts';

/** `/console/identities`: verified people and businesses of the environment (`GET /v1/identities`). */
export class IdentitiesScreen extends ConsoleScreen {
  /** The page of identities the filters and the cursor ask for; a new page aborts the one still loading. */
  readonly #list = new Task(this, {
    args: () =>
      [
        this.ctx.environment,
        this.query.get('reference'),
        this.query.get('starting_after'),
        this.query.get('ending_before'),
      ] as const,
    task: ([, reference, startingAfter, endingBefore], { signal }) =>
      this.api.get('/v1/identities', {
        signal,
        query: {
          external_user_reference: reference,
          starting_after: startingAfter,
          ending_before: endingBefore,
          limit: 20,
        },
      }),
  });

  #filter(event: SubmitEvent): void {
    event.preventDefault();
    this.navigate(consolePath(['identities'], formQuery(event.currentTarget as HTMLFormElement)));
  }

  #page(cursor: PageCursor): void {
    this.navigate(
      consolePath(['identities'], { reference: this.query.get('reference') ?? undefined, ...cursor }),
    );
  }

  override render() {
    const t = this.t;
    const list = this.#list.value;
    return html`${this.heading(t('navIdentities'))}
      <form @submit=${this.#filter} role="search" aria-label=${t('filtersLegend')}>
        <fieldset>
          <legend>${t('filtersLegend')}</legend>
          <div class="filters">
            <div class="field">
              <label for="f-reference">${t('filterReference')}</label>
              <input id="f-reference" name="reference" maxlength="255" .value=${this.query.get('reference') ?? ''} />
            </div>
            <div class="actions">
              <button type="submit">${t('applyFilters')}</button>
              <a class="button secondary" href=${consolePath(['identities'])}>${t('resetFilters')}</a>
            </div>
          </div>
        </fieldset>
      </form>
      ${this.renderTask(this.#list)}
      ${list && list.data.length === 0 ? html`<p>${t('noResults')}</p>` : nothing}
      ${
        list && list.data.length > 0
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">${t('colIdentity')}</th>
                    <th scope="col">${t('status')}</th>
                    <th scope="col">${t('colFlowTier')}</th>
                    <th scope="col">${t('colReference')}</th>
                    <th scope="col">${t('colVerified')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${list.data.map(
                    (identity) => html`<tr>
                      <th scope="row">
                        <a class="mono" href=${consolePath(['identities', identity.identity_id])}>${identity.identity_id}</a>
                      </th>
                      <td>${badge(t, 'identityStatus_', identity.status)}</td>
                      <td>${codeLabel(t, 'flow_', identity.flow)} / ${identity.tier}</td>
                      <td>${identity.external_user_reference ?? t('none')}</td>
                      <td>${this.date(identity.verified_at)}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${pager(
              t,
              pageCursors(list, this.query, (i) => i.identity_id),
              (cursor) => this.#page(cursor),
            )}`
          : nothing
      }`;
  }
}

if (!customElements.get('idv-identities-screen'))
  customElements.define('idv-identities-screen', IdentitiesScreen);
