/**
 * Regenerates the Python client's generated modules (clients/python/src/id_verify/_types.py: TypedDicts
 * and Literal aliases of every schema, query parameters and webhook event; _operations.py: method, path
 * and idempotency of every API-key operation) from the OpenAPI document the server serves.
 * `npm run generate:python-client`; test/node/client/python-client-drift.test.ts fails when the committed
 * files differ from a fresh run.
 *
 * Python 3.9 is the floor, so no `Required`/`NotRequired` (3.11): a schema with both required and
 * optional members becomes a total base with the required ones and a `total=False` class on top.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi-document.ts';

export const PYTHON_TYPES_FILE = fileURLToPath(
  new URL('../clients/python/src/id_verify/_types.py', import.meta.url),
);
export const PYTHON_OPERATIONS_FILE = fileURLToPath(
  new URL('../clients/python/src/id_verify/_operations.py', import.meta.url),
);

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };
type Operation = {
  operationId?: string;
  summary?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const MAX_LINE = 99;
const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

const HEADER = `# Generated from the server's OpenAPI document by \`npm run generate:python-client\`
# (scripts/generate-python-client-types.ts). Do not edit: a test fails when this file
# drifts from the document.
`;

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

function pyString(value: string): string {
  return JSON.stringify(value);
}

function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PYTHON_KEYWORDS.has(name);
}

/** Wraps `Name = Head[a, b, c]` one member a line when it is too long for PEP 8 (at 99 columns). */
function aliasLine(name: string, head: string, members: string[]): string {
  const flat = `${name} = ${head}[${members.join(', ')}]`;
  if (flat.length <= MAX_LINE) return flat;
  return `${name} = ${head}[\n${members.map((member) => `    ${member},`).join('\n')}\n]`;
}

function commentLines(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = `${indent}#`;
  for (const word of words) {
    if (line.length + 1 + word.length > MAX_LINE && line !== `${indent}#`) {
      lines.push(line);
      line = `${indent}#`;
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** Accumulates the module's definitions in an order Python can evaluate (bases before subclasses). */
class PythonTypesWriter {
  readonly blocks: string[] = [];
  private readonly emitted = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly components: Record<string, Schema>;
  constructor(components: Record<string, Schema>) {
    this.components = components;
  }

  /** Emits a component (once) and answers its name. */
  component(name: string): string {
    if (this.emitted.has(name) || this.pending.has(name)) return name;
    this.pending.add(name);
    this.define(name, this.components[name] ?? {});
    this.pending.delete(name);
    this.emitted.add(name);
    return name;
  }

  /**
   * The Python type of a schema used inline. Names of defined types are quoted in alias expressions
   * (which Python evaluates at once); class bodies are lazy under `from __future__ import annotations`.
   */
  typeOf(schema: Schema, hint: string, topLevel = false): string {
    if (schema.$ref) return pyString(this.component(refName(schema.$ref)));
    if (schema.allOf) {
      const ref = schema.allOf.find((part) => part.$ref);
      const nullable = schema.allOf.some((part) => typesOf(part).includes('null'));
      if (ref && schema.allOf.every((part) => part === ref || !part.properties)) {
        const inner = this.typeOf(ref, hint);
        return nullable ? `Optional[${inner}]` : inner;
      }
      return pyString(this.define(hint, schema));
    }
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      // A `{type: 'null'}` variant makes the union Optional rather than a member of it.
      const isNull = (variant: Schema) => !variant.$ref && typesOf(variant).join() === 'null';
      const members = unique(
        // Object variants need a name each; enum variants share one (`status` or a list of them).
        variants
          .filter((variant) => !isNull(variant))
          .map((variant, index) => this.typeOf(variant, variant.properties ? `${hint}${index + 1}` : hint)),
      );
      const union = members.length === 1 ? members[0]! : `Union[${members.join(', ')}]`;
      return variants.some(isNull) ? `Optional[${union}]` : union;
    }
    if (schema.enum) {
      let literal = `Literal[${schema.enum.map(pyLiteral).join(', ')}]`;
      // A long inline enum gets a name of its own (`SessionStatus`): readable, and within the line limit.
      if (literal.length > 40 && !topLevel) literal = pyString(this.alias(hint, literal));
      return typesOf(schema).includes('null') && !schema.enum.includes(null)
        ? `Optional[${literal}]`
        : literal;
    }
    const types = typesOf(schema).filter((type) => type !== 'null');
    const nullable = typesOf(schema).includes('null');
    const members = unique(types.map((type) => this.primitive(type, schema, hint)));
    let result =
      members.length === 0 ? 'Any' : members.length === 1 ? members[0]! : `Union[${members.join(', ')}]`;
    if (nullable && result !== 'Any') result = `Optional[${result}]`;
    return result;
  }

  private primitive(type: string, schema: Schema, hint: string): string {
    switch (type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'array':
        return `List[${schema.items ? this.typeOf(schema.items, `${hint}Item`) : 'Any'}]`;
      case 'object':
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          return pyString(this.define(hint, schema));
        }
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
          return `Dict[str, ${this.typeOf(schema.additionalProperties, `${hint}Value`)}]`;
        }
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  private readonly aliases = new Map<string, string>();

  /** Names an inline `Literal[…]` (the same one once), clear of the components' names. */
  alias(hint: string, literal: string): string {
    // `status` and the items of a `status` list are one type.
    const key = `${hint.replace(/Item$/, '')}=${literal}`;
    const known = this.aliases.get(key);
    if (known) return known;
    let name = hint;
    for (let n = 2; name in this.components || [...this.aliases.values()].includes(name); n++)
      name = `${hint}${n}`;
    this.aliases.set(key, name);
    const match = /^Literal\[(.*)\]$/.exec(literal)!;
    this.blocks.push(aliasLine(name, 'Literal', splitTopLevel(match[1]!)));
    return name;
  }

  /** Writes a named definition: a TypedDict for an object, an alias for anything else. */
  define(name: string, schema: Schema): string {
    const objectParts = schema.allOf?.filter((part) => part.properties) ?? [];
    const bases = schema.allOf
      ?.filter((part) => part.$ref)
      .map((part) => this.component(refName(part.$ref!)));
    if (schema.properties || (bases && bases.length > 0 && objectParts.length > 0)) {
      const properties = { ...schema.properties };
      const required = new Set(schema.required ?? []);
      for (const part of objectParts) {
        Object.assign(properties, part.properties);
        for (const key of part.required ?? []) required.add(key);
      }
      this.typedDict(name, properties, required, bases ?? [], schema.description);
      return name;
    }
    const type = this.typeOf({ ...schema, description: undefined }, name, true).replace(/^"(.*)"$/, '$1');
    if (type === name) return name;
    const block = [...commentLines(schema.description, '')];
    const match = /^(Literal|Union)\[(.*)\]$/.exec(type);
    block.push(match ? aliasLine(name, match[1]!, splitTopLevel(match[2]!)) : `${name} = ${type}`);
    this.blocks.push(block.join('\n'));
    return name;
  }

  typedDict(
    name: string,
    properties: Record<string, Schema>,
    required: Set<string>,
    bases: string[],
    description?: string,
  ): void {
    const fields = Object.entries(properties).map(([key, schema]) => ({
      key,
      type: this.typeOf(schema, `${name}${pascal(key)}`),
      description: schema.description,
      required: required.has(key),
    }));
    const requiredFields = fields.filter((field) => field.required);
    const optionalFields = fields.filter((field) => !field.required);
    const functional = fields.some((field) => !isIdentifier(field.key));
    const block: string[] = [];
    const body = (list: typeof fields) =>
      list.flatMap((field) => [
        ...commentLines(field.description, '    '),
        `    ${field.key}: ${field.type}`,
      ]);
    const entries = (list: typeof fields) =>
      list.map((field) => `    ${pyString(field.key)}: ${field.type},`);
    let ownBases = [...bases];
    if (requiredFields.length > 0 && optionalFields.length > 0) {
      // Required members in a total base, optional ones in the `total=False` class on top.
      const base = `_${name}Required`;
      if (functional) {
        block.push(
          `${base} = TypedDict(\n    ${pyString(base)},\n    {\n${entries(requiredFields)
            .map((line) => `    ${line}`)
            .join('\n')}\n    },\n)`,
        );
      } else {
        block.push(
          `class ${base}(${bases.length > 0 ? bases.join(', ') : 'TypedDict'}):\n${body(requiredFields).join('\n')}`,
        );
      }
      this.blocks.push(block.join('\n'));
      block.length = 0;
      ownBases = [base];
    }
    const own = requiredFields.length > 0 && optionalFields.length > 0 ? optionalFields : fields;
    const total = own.length > 0 && own.every((field) => field.required);
    block.push(...commentLines(description, ''));
    if (functional) {
      // Keys that are not identifiers (`from`, dotted names) need the functional form, which cannot inherit.
      const functionalName = ownBases.length > 0 ? `_${name}Own` : name;
      block.push(
        `${functionalName} = TypedDict(\n    ${pyString(functionalName)},\n    {\n${entries(own)
          .map((line) => `    ${line}`)
          .join('\n')}\n    },${total ? '' : '\n    total=False,'}\n)`,
      );
      if (ownBases.length > 0) {
        block.push('', '', `class ${name}(${[...ownBases, functionalName].join(', ')}):\n    pass`);
      }
    } else {
      const parents = ownBases.length > 0 ? ownBases.join(', ') : 'TypedDict';
      const lines = body(own);
      block.push(
        `class ${name}(${parents}${total ? '' : ', total=False'}):`,
        ...(lines.length > 0 ? lines : ['    pass']),
      );
    }
    this.blocks.push(block.join('\n'));
  }
}

function pyLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return JSON.stringify(value);
}

function typesOf(schema: Schema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Splits `a, Literal[b, c], d` at its top-level commas. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' && text[i - 1] !== '\\') inString = !inString;
    if (!inString && char === '[') depth++;
    if (!inString && char === ']') depth--;
    if (!inString && depth === 0 && char === ',') {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

function apiKeyOperations(
  document: Record<string, unknown>,
): { method: string; path: string; operation: Operation }[] {
  const paths = document['paths'] as Record<string, Record<string, Operation>>;
  const operations = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation !== 'object' || !operation.operationId) continue;
      if (!operation.security?.some((requirement) => 'ApiKey' in requirement)) continue;
      operations.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return operations;
}

/** `_types.py`'s whole text. */
export function pythonTypesSource(document: Record<string, unknown>): string {
  const components = (document['components'] as { schemas: Record<string, Schema> }).schemas;
  const writer = new PythonTypesWriter(components);
  for (const name of Object.keys(components)) writer.component(name);

  // Query parameters of every API-key operation, all optional on the wire.
  for (const { operation } of apiKeyOperations(document)) {
    const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
    if (query.length === 0) continue;
    const properties = Object.fromEntries(
      query.map((parameter) => [parameter.name, { ...parameter.schema, description: parameter.description }]),
    );
    const required = new Set(
      query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    );
    writer.typedDict(
      `${pascal(operation.operationId!)}Query`,
      properties,
      required,
      [],
      `The query of ${operation.operationId}.`,
    );
  }

  // Every event a webhook endpoint receives, one payload schema per kind.
  const webhooks = (document['webhooks'] ?? {}) as Record<string, { post?: Operation }>;
  const eventTypes = unique(
    Object.values(webhooks).flatMap((item) => {
      const schema = item.post?.requestBody?.content?.['application/json']?.schema;
      return schema?.$ref ? [refName(schema.$ref)] : [];
    }),
  );
  writer.blocks.push(
    [
      '# The body of any webhook delivery; branch on its `event`.',
      aliasLine('WebhookEvent', 'Union', eventTypes.map(pyString)),
      aliasLine('WebhookEventKind', 'Literal', Object.keys(webhooks).map(pyString)),
    ].join('\n'),
  );

  return `${HEADER}"""The API's types: every schema of its OpenAPI document as a TypedDict or an alias."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

__all__ = [
${[...writer.blocks.join('\n').matchAll(/^(?:class ([A-Za-z]\w*)|([A-Z]\w*) = )/gm)]
  .map((match) => `    ${pyString(match[1] ?? match[2]!)},`)
  .join('\n')}
]


${writer.blocks.join('\n\n\n')}
`;
}

/** `_operations.py`'s whole text. */
export function pythonOperationsSource(document: Record<string, unknown>): string {
  const rows = apiKeyOperations(document).map(({ method, path, operation }) => {
    const idempotent = (operation.parameters ?? []).some(
      (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
    );
    const args = `${pyString(method)}, ${pyString(path)}, ${idempotent ? 'True' : 'False'}`;
    const flat = `    ${pyString(operation.operationId!)}: Operation(${args}),`;
    return flat.length <= MAX_LINE
      ? flat
      : `    ${pyString(operation.operationId!)}: Operation(\n        ${args}\n    ),`;
  });
  return `${HEADER}"""Every operation an API key may call: its method, path template and Idempotency-Key support."""

from typing import Dict, NamedTuple


class Operation(NamedTuple):
    method: str
    # With \`{name}\` placeholders for the path parameters.
    path: str
    # Whether the server deduplicates it by \`Idempotency-Key\` (then a retry cannot act twice).
    takes_idempotency_key: bool


OPERATIONS: Dict[str, Operation] = {
${rows.join('\n')}
}
`;
}

export async function generatePythonClientFiles(): Promise<{ types: string; operations: string }> {
  const document = await buildOpenApiDocument();
  return { types: pythonTypesSource(document), operations: pythonOperationsSource(document) };
}

if (import.meta.main) {
  const { types, operations } = await generatePythonClientFiles();
  writeFileSync(PYTHON_TYPES_FILE, types);
  writeFileSync(PYTHON_OPERATIONS_FILE, operations);
  process.stdout.write(`wrote ${PYTHON_TYPES_FILE}\nwrote ${PYTHON_OPERATIONS_FILE}\n`);
}
