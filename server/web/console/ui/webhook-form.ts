import { html, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { WEBHOOK_EVENT_KINDS } from '../../../features/webhooks/event-kinds.ts';
import type { Translate } from '../i18n/localize.ts';

type Webhook = Schemas['Webhook'];

export interface WebhookFields {
  url: string;
  events: string[];
  description: string;
}

/** The form's values: `["*"]` when "all events" is ticked (API.md §8: `*` must be sent alone). */
export function webhookFields(form: HTMLFormElement): WebhookFields {
  const data = new FormData(form);
  const all = data.get('all') === 'on';
  return {
    url: String(data.get('url') ?? '').trim(),
    events: all ? ['*'] : data.getAll('events').map(String),
    description: String(data.get('description') ?? '').trim(),
  };
}

/**
 * The fields of a webhook endpoint (create and edit): URL, the event kinds (or all, `*`), description.
 *
 * @example
 *   html`<form @submit=${save}>${webhookFormFields(t, 'new', webhook)}<button>Save</button></form>`
 */
export function webhookFormFields(t: Translate, idPrefix: string, webhook?: Webhook): TemplateResult {
  const all = webhook?.events.includes('*') ?? false;
  const id = (name: string) => `${idPrefix}-${name}`;
  return html`<div class="field">
      <label for=${id('url')}>${t('webhookUrl')}</label>
      <input id=${id('url')} name="url" type="url" required maxlength="2048" placeholder="https://"
        .value=${webhook?.url ?? ''} />
    </div>
    <div class="field">
      <label for=${id('description')}>${t('webhookDescription')}</label>
      <input id=${id('description')} name="description" maxlength="500" .value=${webhook?.description ?? ''} />
    </div>
    <fieldset>
      <legend>${t('webhookEvents')}</legend>
      <div class="check">
        <input type="checkbox" id=${id('all')} name="all" ?checked=${all} />
        <label for=${id('all')}>${t('webhookAllEvents')} <code>*</code></label>
      </div>
      <div class="checks-list">
        ${WEBHOOK_EVENT_KINDS.map(
          (kind) => html`<div class="check">
            <input type="checkbox" id=${id(kind)} name="events" value=${kind}
              ?checked=${webhook?.events.includes(kind) ?? false} />
            <label for=${id(kind)}><code>${kind}</code></label>
          </div>`,
        )}
      </div>
    </fieldset>`;
}
