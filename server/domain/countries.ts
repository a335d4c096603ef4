import countries from 'i18n-iso-countries';

const ALPHA3 = new Set(Object.keys(countries.getAlpha3Codes()));

/** A real ISO 3166-1 alpha-3 code, upper case (`DEU`, not `deu` or `XXX`). */
export function isAlpha3Country(code: string): boolean {
  return ALPHA3.has(code);
}
