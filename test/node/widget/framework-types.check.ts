// A type test, checked by `tsc -p tsconfig.json` (the suite's type-check step), never run: the generated
// framework typings (src/frameworks/, scripts/generate-framework-types.ts) give `<id-verify>` typed
// properties and event handlers in React 19, Vue and Svelte. Each `@ts-expect-error` must stay an error:
// were the element untyped (an `any` or a missing augmentation), tsc would fail with TS2578.
import type { ComponentProps, JSX } from 'react';
import type { SvelteHTMLElements } from 'svelte/elements';
import type { GlobalComponents } from 'vue';
import type { IdVerify } from '../../../src/frameworks/react.ts';
import type {} from '../../../src/frameworks/react-jsx.ts';
import type {} from '../../../src/frameworks/svelte.ts';
import type {} from '../../../src/frameworks/vue.ts';

type ReactProps = JSX.IntrinsicElements['id-verify'];
export const react: ReactProps = {
  verifyUrl: 'https://verify.example/verify/vt_1',
  theme: 'dark',
  allowUpload: false,
  'allow-upload': 'false',
  'onidv-complete': (event) => console.log(event.detail.status, event.detail.session_id),
  'onidv-error': (event) => console.log(event.detail.code, event.detail.recoverable),
};
// @ts-expect-error: not a theme.
export const reactTheme: ReactProps = { theme: 'sepia' };
// @ts-expect-error: the complete event's detail has no `code`.
export const reactDetail: ReactProps = { 'onidv-complete': (event) => event.detail.code };
// @ts-expect-error: an attribute is a string.
export const reactAttribute: ReactProps = { 'allow-upload': false };

type VueProps = InstanceType<GlobalComponents['id-verify']>['$props'];
export const vue: VueProps = {
  verifyUrl: 'https://verify.example/verify/vt_1',
  onIdvComplete: (event) => console.log(event.detail.status),
};
// @ts-expect-error: `pollInterval` is a number.
export const vuePoll: VueProps = { pollInterval: '100' };
// @ts-expect-error: the exit event's detail has no `session_id`.
export const vueDetail: VueProps = { onIdvExit: (event) => event.detail.session_id };

type SvelteAttributes = SvelteHTMLElements['id-verify'];
export const svelte: SvelteAttributes = {
  'verify-url': 'https://verify.example/verify/vt_1',
  locale: 'fr',
  'onidv-step-change': (event) => console.log(event.detail.to),
};
// @ts-expect-error: not a theme.
export const svelteTheme: SvelteAttributes = { theme: 'sepia' };
// @ts-expect-error: the ready event's detail has no `recoverable`.
export const svelteDetail: SvelteAttributes = { 'onidv-ready': (event) => event.detail.recoverable };

type WrapperProps = ComponentProps<typeof IdVerify>;
export const wrapper: WrapperProps = {
  verifyUrl: 'https://verify.example/verify/vt_1',
  onIdvComplete: (event) => console.log(event.detail.status),
};
// @ts-expect-error: the complete event's detail has no `code`.
export const wrapperDetail: WrapperProps = { onIdvComplete: (event) => event.detail.code };
// @ts-expect-error: not a theme.
export const wrapperTheme: WrapperProps = { theme: 'sepia' };
