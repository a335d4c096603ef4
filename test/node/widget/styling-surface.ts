/**
 * The styling surface of `<id-verify>`: every CSS part and custom property the element documents.
 * manifest-docs.test.ts asserts this equals the custom-elements manifest (and docs/embedding.md);
 * test/browser/parts-and-properties.test.ts styles through each one in a real browser. A part or
 * property added to the element's JSDoc without a browser check fails the node test.
 */
export const PART_NAMES: readonly string[] = [
  'base',
  'sandbox-banner',
  'header',
  'progress',
  'attempts',
  'body',
  'button',
  'primary',
  'handoff',
  'choice',
  'video',
  'shutter',
  'preview',
  'qr',
  'sandbox-outcome',
];

export const CSS_PROPERTY_NAMES: readonly string[] = [
  '--idv-color-primary',
  '--idv-color-on-primary',
  '--idv-color-primary-text',
  '--idv-color-background',
  '--idv-color-surface',
  '--idv-color-text',
  '--idv-color-muted',
  '--idv-color-border',
  '--idv-color-danger',
  '--idv-color-success',
  '--idv-color-banner',
  '--idv-color-on-banner',
  '--idv-font-family',
  '--idv-radius',
  '--idv-focus-ring',
];
