import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';
import type { DetailsBody, DocumentPrefill, IdDocumentType } from '../../src/api/verify-api.ts';
import type { FlowContext } from '../../src/flow/flow-types.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { deep, fill, until } from './support/dom.ts';
import { FakeVerifyApi } from './support/fake-verify-api.ts';

/**
 * The MRZ field of the details form (issue 14): offered only for a document that prints one when the
 * server read none; checked as typed (shape, characters, ICAO 9303 check digits) with the reason tied
 * to the field and announced; a zone that checks out fills the empty fields and is sent as `mrz`.
 */

const PASSPORT = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
] as const;
const ID_CARD = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
] as const;

const ctx: FlowContext = {
  steps: ['consent', 'id_document'],
  completed: ['consent'],
  documentTypes: ['passport', 'id_card', 'driving_licence', 'residence_permit'],
  documentType: 'passport',
  captureMode: 'upload',
  cameraIssue: null,
  sandbox: false,
};

interface Shown {
  el: IdVerifyElement;
  api: FakeVerifyApi;
  step: HTMLElement & { updateComplete: Promise<unknown> };
}

async function details(
  documentType: IdDocumentType | null,
  options: { prefill?: DocumentPrefill; locale?: string; theme?: string } = {},
): Promise<Shown> {
  const api = new FakeVerifyApi({
    required_steps: ['consent', 'id_document'],
    steps: [
      { step: 'consent', status: 'completed' },
      { step: 'id_document', status: 'pending' },
    ],
    ...(options.prefill ? { prefill: { id_document: options.prefill } } : {}),
  });
  const locale = options.locale ?? 'en';
  const el = await fixture<IdVerifyElement>(
    html`<id-verify locale=${locale} theme=${options.theme ?? 'light'} .api=${api} .pollInterval=${60_000}></id-verify>`,
  );
  await until(() => el.state.phase !== 'loading', 3000, 'loaded');
  await until(
    () => el.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('lang') === locale,
    3000,
    'locale',
  );
  el.flow = { phase: 'step', screen: 'document_details', ctx: { ...ctx, documentType } };
  await el.updateComplete;
  const step = await until(
    () => {
      const s = deep<Shown['step']>(el, 'idv-document-step');
      return s?.shadowRoot?.querySelector('form') ? s : null;
    },
    3000,
    'details form',
  );
  // The field's chunk loads with the screen; once it is in, the step has rendered with it or without.
  await import('../../src/steps/document-mrz-field.ts');
  await new Promise((resolve) => setTimeout(resolve, 0));
  await step.updateComplete;
  return { el, api, step };
}

const q = <E extends Element = HTMLElement>(step: Shown['step'], selector: string) =>
  step.shadowRoot?.querySelector<E>(selector) ?? null;
const field = (step: Shown['step'], name: string) =>
  q<HTMLInputElement>(step, `#${name}`) as HTMLInputElement;
const mrzField = (step: Shown['step']) => q<HTMLTextAreaElement>(step, 'textarea#mrz');

/** Types into the MRZ field the way the keyboard does (input), then leaves it (change). */
async function typeMrz(step: Shown['step'], text: string, leave = true): Promise<void> {
  const area = mrzField(step) as HTMLTextAreaElement;
  area.focus();
  area.value = text;
  area.dispatchEvent(new Event('input', { bubbles: true }));
  if (leave) area.dispatchEvent(new Event('change', { bubbles: true }));
  await step.updateComplete;
}

function submit(step: Shown['step']): void {
  (q<HTMLButtonElement>(step, 'button[type=submit]') as HTMLButtonElement).click();
}

const errorOf = (step: Shown['step']) => q(step, '#mrz-error');

describe('details form: the MRZ field', () => {
  describe('is offered only when it is needed', () => {
    for (const [type, lines] of [
      ['passport', 2],
      ['id_card', 3],
      ['residence_permit', 3],
    ] as const) {
      it(`${type}, nothing read: shown, ${lines} rows, monospace, no autocomplete or spellcheck`, async () => {
        const { step } = await details(type);
        const area = mrzField(step);
        expect(area).to.exist;
        const a = area as HTMLTextAreaElement;
        expect(a.getAttribute('autocomplete')).to.equal('off');
        expect(a.spellcheck).to.equal(false);
        expect(a.rows).to.equal(lines);
        expect(getComputedStyle(a).fontFamily).to.match(/monospace/);
        expect(a.required, 'optional').to.equal(false);
        const label = q(step, 'label[for="mrz"]');
        expect(label?.textContent).to.match(/Machine-readable zone/);
        // The hint says what to type, and the field points at it.
        const hint = q(step, '#mrz-hint')?.textContent ?? '';
        expect(hint).to.match(type === 'passport' ? /2 lines of 44/ : /3 lines of 30/);
        expect(a.getAttribute('aria-describedby')).to.equal('mrz-hint');
      });
    }

    it('not for a driving licence (no ICAO MRZ)', async () => {
      const { step } = await details('driving_licence');
      expect(field(step, 'first_name')).to.exist;
      expect(mrzField(step)).to.equal(null);
    });

    it('not when the server read the MRZ off the photo', async () => {
      const { step } = await details('passport', {
        prefill: {
          source: 'mrz',
          details: { last_name: 'ERIKSSON', first_name: 'ANNA MARIA' },
          details_required: true,
        },
      });
      expect(field(step, 'last_name').value).to.equal('ERIKSSON');
      expect(mrzField(step)).to.equal(null);
    });

    it('when only a barcode was read, the MRZ field is still there', async () => {
      const { step } = await details('id_card', {
        prefill: { source: 'barcode', details: { last_name: 'ERIKSSON' }, details_required: true },
      });
      expect(mrzField(step)).to.exist;
    });

    it('with no type chosen (a resumed visit), for any format the accepted types print', async () => {
      const { step } = await details(null);
      expect(mrzField(step)).to.exist;
      await typeMrz(step, ID_CARD.join('\n'));
      expect(errorOf(step)).to.equal(null);
      expect(field(step, 'document_number').value).to.equal('D23145890');
    });
  });

  describe('checks what is typed', () => {
    it('upper-cases as typed, keeping the caret where it was', async () => {
      const { step } = await details('passport');
      const area = mrzField(step) as HTMLTextAreaElement;
      area.focus();
      area.value = 'p<uto';
      area.setSelectionRange(3, 3);
      area.dispatchEvent(new Event('input', { bubbles: true }));
      expect(area.value).to.equal('P<UTO');
      expect(area.selectionStart).to.equal(3);
    });

    it('a wrong check digit: the error names the field, is announced, and is tied to the field', async () => {
      const { step } = await details('passport');
      await typeMrz(step, `${PASSPORT[0]}\n${PASSPORT[1].replace('L898902C36', 'L898902C35')}`);
      const error = await until(() => errorOf(step), 2000, 'error');
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.match(/document number/i);
      const area = mrzField(step) as HTMLTextAreaElement;
      expect(area.getAttribute('aria-invalid')).to.equal('true');
      expect(area.getAttribute('aria-describedby')?.split(' ')).to.include('mrz-error');
      // Nothing was filled from a zone that does not check out.
      expect(field(step, 'document_number').value).to.equal('');
    });

    it('the wrong shape for the document: says how many lines of how many characters', async () => {
      const { step } = await details('id_card');
      await typeMrz(step, PASSPORT.join('\n'));
      expect(errorOf(step)?.textContent).to.match(/3 lines of 30 characters/);
      const { step: passport } = await details('passport');
      await typeMrz(passport, PASSPORT[0]);
      expect(errorOf(passport)?.textContent).to.match(/2 lines of 44 characters/);
    });

    it('a character that is not in an MRZ: says which line', async () => {
      const { step } = await details('passport');
      await typeMrz(step, `${PASSPORT[0]}\n${PASSPORT[1].replace('ZE18', 'ZE-8')}`);
      expect(errorOf(step)?.textContent).to.match(/Line 2/);
    });

    it('no nagging while typing; once shown, the error follows the typing and goes when it checks out', async () => {
      const { step } = await details('passport');
      await typeMrz(step, PASSPORT[0].slice(0, 10), false);
      expect(errorOf(step), 'no error mid-typing').to.equal(null);
      await typeMrz(step, PASSPORT[0]);
      expect(errorOf(step)).to.exist;
      await typeMrz(step, PASSPORT.join('\n'), false);
      expect(errorOf(step)).to.equal(null);
      expect(mrzField(step)?.getAttribute('aria-invalid')).to.equal('false');
    });
  });

  describe('fills and sends', () => {
    it('a valid zone fills only the empty fields and says so in a status', async () => {
      const { step } = await details('passport');
      fill(field(step, 'first_name'), 'Anna');
      await typeMrz(step, PASSPORT.join('\n').toLowerCase());
      expect(field(step, 'first_name').value, 'typed value kept').to.equal('Anna');
      expect(field(step, 'last_name').value).to.equal('ERIKSSON');
      expect(field(step, 'document_number').value).to.equal('L898902C3');
      expect(field(step, 'date_of_birth').value).to.equal('1974-08-12');
      expect(field(step, 'expiry_date').value).to.equal('2012-04-15');
      // The session's country was only a guess for the nationality: the zone's replaces it.
      expect(field(step, 'nationality').value).to.equal('UTO');
      const note = q(step, '#mrz-filled-note');
      expect(note?.textContent).to.match(/filled in from the machine-readable zone/);
      expect(note?.parentElement?.getAttribute('role')).to.equal('status');
    });

    it('sends the zone as printed (upper case, lines joined by \\n) with the details', async () => {
      const { el, api, step } = await details('id_card');
      await typeMrz(step, ` ${ID_CARD[0].toLowerCase()}\r\n${ID_CARD[1]}\r\n${ID_CARD[2]} `);
      fill(field(step, 'nationality'), 'SWE');
      submit(step);
      await until(() => api.calls.some((c) => c.method === 'putDetails'), 3000, 'details sent');
      const body = api.calls.find((c) => c.method === 'putDetails')?.body as DetailsBody;
      expect(body).to.deep.equal({
        step: 'id_document',
        first_name: 'ANNA MARIA',
        last_name: 'ERIKSSON',
        date_of_birth: '1974-08-12',
        nationality: 'SWE',
        document_number: 'D23145890',
        expiry_date: '2012-04-15',
        mrz: ID_CARD.join('\n'),
      });
      await until(() => el.state.phase !== 'step' || el.state.screen !== 'document_details', 3000, 'next');
    });

    it('without a zone, nothing extra is sent', async () => {
      const { api, step } = await details('passport');
      for (const [name, value] of [
        ['first_name', 'Anna'],
        ['last_name', 'Eriksson'],
        ['date_of_birth', '1974-08-12'],
        ['nationality', 'SWE'],
        ['document_number', 'L898902C3'],
        ['expiry_date', '2031-04-15'],
      ])
        fill(field(step, name as string), value as string);
      submit(step);
      await until(() => api.calls.some((c) => c.method === 'putDetails'), 3000, 'details sent');
      expect(api.calls.find((c) => c.method === 'putDetails')?.body).not.to.have.property('mrz');
    });

    it('a zone that does not check out is not sent: focus goes to it with the reason', async () => {
      const { api, step } = await details('passport');
      await typeMrz(step, PASSPORT.join('\n'));
      // The form is now complete; then a slip in the zone's composite check digit.
      fill(field(step, 'nationality'), 'SWE');
      await typeMrz(step, `${PASSPORT[0]}\n${PASSPORT[1].slice(0, 43)}1`, false);
      submit(step);
      await until(() => errorOf(step), 2000, 'error');
      expect(step.shadowRoot?.activeElement?.id).to.equal('mrz');
      expect(errorOf(step)?.textContent).to.match(/check digit/);
      expect(api.calls.some((c) => c.method === 'putDetails')).to.equal(false);
    });

    it('the server refusing the zone puts its error next to the field', async () => {
      const { api, step } = await details('passport');
      await typeMrz(step, PASSPORT.join('\n'));
      fill(field(step, 'nationality'), 'SWE');
      api.failWith('putDetails', 400, { code: 'invalid_parameter', param: 'mrz', detail: 'mrz' });
      submit(step);
      const error = await until(() => errorOf(step), 3000, 'server error');
      expect(error.textContent).to.match(/do not check out/);
      expect(mrzField(step)?.getAttribute('aria-invalid')).to.equal('true');
      await until(() => step.shadowRoot?.activeElement?.id === 'mrz', 2000, 'focus on the field');
    });
  });

  describe('accessibility', () => {
    for (const [locale, theme] of [
      ['en', 'light'],
      ['en', 'dark'],
      ['ar', 'light'],
    ] as const) {
      it(`passes axe with an error and the filled note (${locale}, ${theme})`, async () => {
        const { el, step } = await details('passport', { locale, theme });
        await typeMrz(step, PASSPORT.join('\n'));
        await typeMrz(step, PASSPORT[0]);
        expect(errorOf(step)).to.exist;
        expect(q(step, '#mrz-filled-note')).to.exist;
        await expect(el).to.be.accessible();
        // The zone reads left to right even in a right-to-left page.
        expect(getComputedStyle(mrzField(step) as HTMLTextAreaElement).direction).to.equal('ltr');
      });
    }
  });
});
