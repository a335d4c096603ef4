/**
 * Writes the framework typings of the `id-verify` package from its custom-elements manifest:
 * src/frameworks/react-jsx.ts (React 19 JSX intrinsic elements), vue.ts (Vue `GlobalComponents`),
 * svelte.ts (`SvelteHTMLElements`), and react.ts, the elements as React components by @lit/react for
 * React 18 (the one generated file with code). Each element of the manifest gets its attributes, its writable
 * properties and an `on…` handler per documented event, typed from the element class and the global
 * event map the event classes declare. `npm run build:npm` runs this first (the files are compiled with
 * the rest of src/); test/node/widget/framework-types-drift.test.ts fails when the committed files
 * differ from a fresh run.
 *
 * `node scripts/generate-framework-types.ts` writes the files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FRAMEWORKS_DIR = join(ROOT, 'src/frameworks');

interface ManifestMember {
  kind: string;
  name: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  description?: string;
  attribute?: string;
}
interface ManifestDeclaration {
  name: string;
  tagName?: string;
  description?: string;
  attributes?: { name: string; fieldName?: string; description?: string }[];
  members?: ManifestMember[];
  events?: { name?: string; description?: string }[];
}
export interface Manifest {
  modules: { path: string; declarations?: ManifestDeclaration[] }[];
}

/**
 * The manifest as `npm run build:npm` makes it (same analyzer, same flags), into a temporary folder.
 * A config file stops the analyzer writing `customElements` into the repository's package.json.
 */
export function analyzeWidgetManifest(): Manifest {
  const outDir = mkdtempSync(join(tmpdir(), 'idv-cem-'));
  try {
    const config = join(outDir, 'custom-elements-manifest.config.mjs');
    writeFileSync(config, 'export default { packagejson: false };\n');
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
        'analyze',
        '--config',
        config,
        '--litelement',
        '--globs',
        'src/**/*.ts',
        '--exclude',
        'src/dist/**',
        '--outdir',
        relative(ROOT, outDir),
        '--quiet',
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    return JSON.parse(readFileSync(join(outDir, 'custom-elements.json'), 'utf8')) as Manifest;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** What the typings need of one element. */
interface ElementTyping {
  tagName: string;
  className: string;
  /** Relative to src/frameworks/. */
  importPath: string;
  description: string;
  /** Writable public properties, with the attribute that reflects each (when one does). */
  properties: { name: string; attribute: string | undefined; description: string }[];
  events: { name: string; description: string }[];
}

function elementsOf(manifest: Manifest): ElementTyping[] {
  return manifest.modules
    .flatMap((module) =>
      (module.declarations ?? [])
        .filter((declaration) => declaration.tagName)
        .map((declaration) => ({
          tagName: declaration.tagName as string,
          className: declaration.name,
          importPath: `../${module.path.replace(/^src\//, '')}`,
          description: firstSentence(declaration.description),
          properties: (declaration.members ?? [])
            .filter(
              (member) =>
                member.kind === 'field' &&
                !member.static &&
                !member.readonly &&
                (member.privacy ?? 'public') === 'public' &&
                !member.name.startsWith('_'),
            )
            .map((member) => ({
              name: member.name,
              attribute: declaration.attributes?.find((attribute) => attribute.fieldName === member.name)
                ?.name,
              description: firstSentence(member.description),
            })),
          events: (declaration.events ?? [])
            .filter((event): event is { name: string; description?: string } => Boolean(event.name))
            .map((event) => ({ name: event.name, description: firstSentence(event.description) })),
        })),
    )
    .sort((a, b) => a.tagName.localeCompare(b.tagName));
}

function firstSentence(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return (end === -1 ? flat : flat.slice(0, end + 1)).replaceAll('*/', '* /');
}

const doc = (text: string, indent: string) => (text ? `${indent}/** ${text} */\n` : '');
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
const pascal = (name: string) =>
  name.replace(/(^|[-_.])(\w)/g, (_, _separator, letter: string) => letter.toUpperCase());

const HEADER = (what: string) => `/**
 * ${what} of the id-verify custom elements. Generated from the custom-elements manifest by
 * scripts/generate-framework-types.ts (\`npm run build:npm\` runs it): do not edit, a test fails when this
 * file drifts from the manifest.
 */
`;

function classImports(elements: ElementTyping[]): string {
  return elements
    .map((element) => `import type { ${element.className} } from '${element.importPath}';\n`)
    .join('');
}

/** Properties, typed from the class, and the attributes named otherwise (strings), both accepted. */
function propertyLines(element: ElementTyping, indent: string, attributes: boolean): string {
  return element.properties
    .map((property) => {
      const type = `${element.className}['${property.name}']`;
      const lines = [`${doc(property.description, indent)}${indent}${key(property.name)}?: ${type};\n`];
      if (attributes && property.attribute && property.attribute !== property.name) {
        // An attribute holds a string: `allow-upload={false}` would remove it (and leave uploads on).
        lines.push(
          `${indent}/** The \`${property.name}\` property as an attribute (a string); prefer the property. */\n${indent}${key(property.attribute)}?: string;\n`,
        );
      }
      return lines.join('');
    })
    .join('');
}

/** `on<event-name>` handlers: the event name as written, which React 19 and Svelte 5 listen to. */
function literalHandlerLines(element: ElementTyping, indent: string): string {
  return element.events
    .map(
      (event) =>
        `${doc(event.description, indent)}${indent}${key(`on${event.name}`)}?: (event: GlobalEventHandlersEventMap['${event.name}']) => void;\n`,
    )
    .join('');
}

function reactTypings(elements: ElementTyping[]): string {
  const interfaces = elements
    .map(
      (element) => `/**
 * \`<${element.tagName}>\` in React 19 JSX: React sets each prop the element has as a property (objects and
 * booleans arrive as they are), any other as an attribute, and listens to \`on<event-name>\` props.
 */
export interface ${element.className}JsxProps
  extends DetailedHTMLProps<HTMLAttributes<${element.className}>, ${element.className}> {
${propertyLines(element, '  ', true)}${literalHandlerLines(element, '  ')}}
`,
    )
    .join('\n');
  return `${HEADER('React 19 JSX typings')}import type { DetailedHTMLProps, HTMLAttributes } from 'react';
${classImports(elements)}
${interfaces}
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
${elements.map((element) => `      '${element.tagName}': ${element.className}JsxProps;\n`).join('')}    }
  }
}
`;
}

/** `id-verify/react`: each element as a React component by @lit/react, for React 18 (and 19). */
function reactComponents(elements: ElementTyping[]): string {
  const components = elements
    .map(
      (element) => `/**
 * \`<${element.tagName}>\` as a React component (React 18 or later): props set the element's properties,
 * and \`on…\` callbacks receive its typed events.
 *
 * @example
 * <${pascal(element.tagName)} verifyUrl={url} onIdvComplete={(event) => setStatus(event.detail.status)} />
 */
export const ${pascal(element.tagName)} = createComponent({
  tagName: '${element.tagName}',
  elementClass: ${element.className},
  react: React,
  events: {
${element.events
  .map(
    (event) =>
      `    on${pascal(event.name)}: '${event.name}' as EventName<GlobalEventHandlersEventMap['${event.name}']>,\n`,
  )
  .join('')}  },
});
`,
    )
    .join('\n');
  return `${HEADER('React components (@lit/react, React 18 and later)')}import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
${elements.map((element) => `import { ${element.className} } from '${element.importPath}';\n`).join('')}import '../id-verify.ts';

// Registers the elements (id-verify/define), so rendering a component is enough.

${components}`;
}

function vueTypings(elements: ElementTyping[]): string {
  const interfaces = elements
    .map(
      (element) => `/**
 * \`<${element.tagName}>\` in Vue templates: bind properties (\`:verify-url\` or \`:verifyUrl\`), listen with
 * \`@event-name\`. Tell the compiler it is a custom element (\`isCustomElement\`, docs/embedding.md).
 */
export interface ${element.className}VueProps {
${propertyLines(element, '  ', false)}${element.events
  .map(
    (event) =>
      `${doc(event.description, '  ')}  on${pascal(event.name)}?: (event: GlobalEventHandlersEventMap['${event.name}']) => void;\n`,
  )
  .join('')}}
`,
    )
    .join('\n');
  return `${HEADER('Vue 3 typings')}import type { DefineComponent } from 'vue';
${classImports(elements)}
${interfaces}
declare module 'vue' {
  interface GlobalComponents {
${elements.map((element) => `    '${element.tagName}': DefineComponent<${element.className}VueProps>;\n`).join('')}  }
}
`;
}

function svelteTypings(elements: ElementTyping[]): string {
  const interfaces = elements
    .map(
      (element) => `/**
 * \`<${element.tagName}>\` in Svelte 5: Svelte sets each attribute the element has as a property and
 * listens to \`on<event-name>\` attributes.
 */
export interface ${element.className}SvelteAttributes extends HTMLAttributes<${element.className}> {
${propertyLines(element, '  ', true)}${literalHandlerLines(element, '  ')}}
`,
    )
    .join('\n');
  return `${HEADER('Svelte 5 typings')}import type { HTMLAttributes } from 'svelte/elements';
${classImports(elements)}
${interfaces}
declare module 'svelte/elements' {
  interface SvelteHTMLElements {
${elements.map((element) => `    '${element.tagName}': ${element.className}SvelteAttributes;\n`).join('')}  }
}
`;
}

/** Formats like every other file, so `biome check` and the drift test agree on one byte sequence. */
function formatWithBiome(path: string, source: string): string {
  const result = spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], {
    input: source,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`biome format failed: ${result.stderr}`);
  return result.stdout;
}

/** Every generated file, path → text, as a fresh run would write it. */
export function generateFrameworkTypes(manifest: Manifest = analyzeWidgetManifest()): Map<string, string> {
  const elements = elementsOf(manifest);
  if (elements.length === 0) throw new Error('the manifest declares no custom element');
  const files = new Map<string, string>();
  for (const [name, text] of [
    ['react-jsx.ts', reactTypings(elements)],
    ['react.ts', reactComponents(elements)],
    ['vue.ts', vueTypings(elements)],
    ['svelte.ts', svelteTypings(elements)],
  ] as const) {
    const path = join(FRAMEWORKS_DIR, name);
    files.set(path, formatWithBiome(path, text));
  }
  return files;
}

if (import.meta.main) {
  for (const [path, text] of generateFrameworkTypes()) {
    writeFileSync(path, text);
    process.stdout.write(`wrote ${relative(ROOT, path)}\n`);
  }
}
