import { html, nothing, type TemplateResult } from 'lit';
import type { Schemas } from '../api/console-api.ts';
import { DOCUMENT_DATA_FIELDS as DOCUMENT_FIELDS } from '../../../features/review-queue/document-data.ts';
import { codeLabel, type Translate } from '../i18n/localize.ts';

type Check = Schemas['SessionResult']['checks'][number];
type DocumentData = Schemas['DocumentData'];

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A source's column heading: where the value came from, and whether a read one verified. */
function sourceHeading(t: Translate, source: DocumentData['sources'][number]): TemplateResult {
  return html`${codeLabel(t, 'docSource_', source.source)}${
    source.source !== 'typed' && !source.verified
      ? html`<br /><span class="badge tone-wait">${t('docSourceUnverified')}</span>`
      : nothing
  }`;
}

/** The values, one row per field and one column per source, a row that disagrees marked in words too. */
function valuesTable(t: Translate, data: DocumentData): TemplateResult {
  const differs = new Set(data.disagreements);
  const fields = [
    ...DOCUMENT_FIELDS.filter((field) => data.fields.includes(field)),
    ...data.fields.filter((field) => !(DOCUMENT_FIELDS as readonly string[]).includes(field)),
  ];
  return html`<div class="table-wrap" role="region" tabindex="0" aria-labelledby="document-data-title">
    <table class="document-data">
      <thead>
        <tr>
          <th scope="col">${t('docField')}</th>
          ${data.sources.map((source) => html`<th scope="col">${sourceHeading(t, source)}</th>`)}
          <th scope="col">${t('docAgreement')}</th>
        </tr>
      </thead>
      <tbody>
        ${fields.map(
          (field) => html`<tr class=${differs.has(field) ? 'differs' : ''}>
            <th scope="row">${codeLabel(t, 'docField_', field)}</th>
            ${data.sources.map(
              (source) =>
                html`<td class="mono">${source.values[field] ?? html`<span class="muted">${t('none')}</span>`}</td>`,
            )}
            <td>${
              differs.has(field)
                ? html`<span class="badge tone-bad">${t('docDiffers')}</span>`
                : html`<span class="badge tone-good">${t('docAgrees')}</span>`
            }</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/**
 * Without the values (the server has none to give, or the role may not read them): what the automated
 * data-consistency check compared and which fields it found different, by name.
 */
function fromCheck(t: Translate, check: Check | null, why: string): TemplateResult {
  const sources = stringList(check?.details?.sources);
  const fields = stringList(check?.details?.fields);
  return html`<p class="muted">${why}</p>
    ${
      check
        ? html`<dl class="facts">
          <dt>${t('docSourcesCompared')}</dt>
          <dd>${sources.length > 0 ? sources.map((s) => codeLabel(t, 'docSource_', s)).join(', ') : t('none')}</dd>
          <dt>${t('docFieldsDiffering')}</dt>
          <dd>${
            fields.length > 0
              ? html`<span class="badge tone-bad">${t('docDiffers')}</span>
                ${fields.map((f) => codeLabel(t, 'docField_', f)).join(', ')}`
              : check.status === 'passed'
                ? html`<span class="badge tone-good">${t('docAgrees')}</span>`
                : t('none')
          }</dd>
        </dl>`
        : nothing
    }`;
}

/**
 * The review screen's document-data comparison: what the MRZ and the barcode say against what the person
 * typed, field by field, disagreements marked with a word and a colour. `data` is null while the values
 * cannot be read (`unavailable` says why); the data-consistency check still names the differing fields.
 *
 * @example
 *   html`${documentDataComparison(t, data, checks.find((c) => c.type === 'data_consistency') ?? null, '')}`
 */
export function documentDataComparison(
  t: Translate,
  data: DocumentData | null,
  check: Check | null,
  unavailable: string,
): TemplateResult {
  return html`<section id="document-data" class="panel" aria-labelledby="document-data-title">
    <h3 id="document-data-title">${t('docDataTitle')}</h3>
    ${
      data && data.sources.length > 0
        ? valuesTable(t, data)
        : fromCheck(t, check, unavailable || t('docDataNone'))
    }
  </section>`;
}
