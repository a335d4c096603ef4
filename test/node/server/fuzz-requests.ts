import fc from 'fast-check';

/**
 * fast-check arbitraries for hostile requests against the operations of the server's own OpenAPI
 * document: each request is built from one operation (its path ids, query names, body schema and
 * security) and then spoiled in one or more places.
 */

export interface FuzzOperation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** `ApiKey`, `ConsoleBearer`, `VerifyToken`; empty for the public operations. */
  schemes: string[];
  /** The media type of the body, if the operation takes one. */
  bodyType: 'json' | 'multipart' | null;
  /** The JSON schema of the body, `$ref`s resolved. */
  bodySchema: Record<string, any> | null;
}

/** Real values the fuzzer may use, so that some spoiled requests get past authentication and lookup. */
export interface FuzzContext {
  apiKey: string;
  otherEnvironmentKey: string;
  consoleToken: string;
  verifyToken: string;
  /** Real ids of the tenant's objects by path parameter name. */
  ids: Record<string, string[]>;
}

export interface FuzzRequest {
  method: string;
  /** Path and query, already percent-encoded (sometimes wrongly, on purpose). */
  target: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | undefined;
  /** What was spoiled, for the failure message. */
  spoiled: string[];
}

/** Reads the operations out of the served document. */
export function operationsOf(document: Record<string, any>): FuzzOperation[] {
  const resolve = (schema: any): any => {
    if (!schema || typeof schema !== 'object') return schema;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() as string;
      return resolve(document['components']?.schemas?.[name]);
    }
    return schema;
  };
  return Object.entries<Record<string, any>>(document['paths']).flatMap(([path, methods]) =>
    Object.entries<Record<string, any>>(methods).map(([method, operation]) => {
      const parameters: { in: string; name: string }[] = operation['parameters'] ?? [];
      const content = operation['requestBody']?.content ?? {};
      const bodyType = content['application/json']
        ? 'json'
        : content['multipart/form-data']
          ? 'multipart'
          : null;
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((each) => each.in === 'path').map((each) => each.name),
        queryParams: parameters.filter((each) => each.in === 'query').map((each) => each.name),
        schemes: (operation['security'] ?? document['security'] ?? []).flatMap(
          (requirement: Record<string, unknown>) => Object.keys(requirement),
        ),
        bodyType,
        bodySchema:
          bodyType === 'json'
            ? resolve(content['application/json'].schema)
            : content['multipart/form-data']
              ? resolve(content['multipart/form-data'].schema)
              : null,
      } satisfies FuzzOperation;
    }),
  );
}

/** Unicode and byte-level troublemakers: what a database, a regex or a log line chokes on. */
const EDGE_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800', // lone high surrogate
  '\uDC00x', // lone low surrogate
  '\u202Egnp.exe', // right-to-left override
  '\u200F\u200E', // RTL and LTR marks
  '\u200B\u200C\u200D\u2060', // zero-width characters
  '\uFEFF', // byte order mark
  '\uFFFF\uFFFE',
  'e\u0301\u0301\u0301\u0301', // stacked combining marks
  '👩‍👩‍👧‍👦',
  '\r\n\t\u000B\u000C\u001B[31m',
  '\u007F\u0080\u009F',
  "' or 1=1 --",
  '"; drop table sessions; --',
  '$1',
  '{"$gt":""}',
  '../../../../etc/passwd',
  '%00',
  '%',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  'null',
  'sess_',
  `sess_${'0'.repeat(26)}`,
  'a'.repeat(10_000),
  '\u0000'.repeat(300),
];

/** A string from the edge cases, from the whole UTF-16 range (surrogates included), or very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', '\u0000', 'é', '\uD800', '𝔘'), fc.integer({ min: 1_000, max: 20_000 }))
      .map(([unit, times]) => unit.repeat(times)),
  },
);

/**
 * Percent-encodes a string for a URL; lone surrogates become the bytes a sloppy encoder would write
 * (CESU-8: invalid UTF-8), which the server must refuse rather than crash on.
 */
export function percentEncode(text: string): string {
  // The common case in one call (it throws only on a lone surrogate), the slow path character by character.
  try {
    return encodeURIComponent(text);
  } catch {}
  let out = '';
  for (const char of text) {
    try {
      out += encodeURIComponent(char);
    } catch {
      const unit = char.charCodeAt(0);
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
  }
  return out;
}

/** Encodings that are wrong on their own: broken escapes, overlong NUL, invalid UTF-8, traversal. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%0',
  '%FF%FE',
  '%C0%80',
  '%ED%A0%80',
  '%E2%80',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  ';x=1',
];

function pathSegment(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileString.map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    {
      // A real id, spoiled at the end: gets past the shape checks of some layers.
      weight: realIds.length > 0 ? 2 : 0,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...(realIds.length > 0 ? realIds : ['x'])),
          fc.constantFrom('', '%00', '%20', 'x', '%0A'),
        )
        .map(([id, tail]) => `${id}${tail}`),
    },
  );
}

function queryString(operation: FuzzOperation): fc.Arbitrary<string> {
  const names = fc.oneof(
    fc.constantFrom(...(operation.queryParams.length > 0 ? operation.queryParams : ['limit'])),
    fc.constantFrom('limit', 'starting_after', 'ending_before', 'limit[]', 'a[b]', ''),
    hostileString.map(percentEncode),
  );
  const values = fc.oneof(
    hostileString.map(percentEncode),
    fc.constantFrom('-1', '0', '101', '1.5', '1e3', '99999999999999999999', '', 'true', '%', '%zz', '%C0%80'),
    // Cursors that look real but are not, or are real ids in the wrong place.
    fc.constantFrom('sess_%00', 'evt_', `whk_${'z'.repeat(200)}`, 'cursor==', 'eyJpZCI6MX0'),
  );
  const pair = fc.tuple(names, values).map(([name, value]) => `${name}=${value}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    // Duplicated names come from the array: the same name drawn twice.
    {
      weight: 4,
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((pairs) => `?${pairs.join('&')}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&&', '?=', '?==x', '?limit', '?limit=1&limit=2', '?%') },
  );
}

/** Header values must be bytes 0x20–0xFF (the fetch API refuses the rest before the server sees them). */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

function credentials(
  operation: FuzzOperation,
  context: FuzzContext,
): fc.Arbitrary<[string, Record<string, string>]> {
  const valid: [string, Record<string, string>][] = [];
  if (operation.schemes.includes('ApiKey')) valid.push(['api key', { 'x-api-key': context.apiKey }]);
  if (operation.schemes.includes('ApiKey'))
    valid.push(['other environment key', { 'x-api-key': context.otherEnvironmentKey }]);
  if (operation.schemes.includes('ConsoleBearer'))
    valid.push([
      'console token',
      { authorization: `Bearer ${context.consoleToken}`, 'x-environment': 'sandbox' },
    ]);
  if (operation.schemes.includes('VerifyToken'))
    valid.push(['verify token', { 'x-verify-token': context.verifyToken }]);
  const garbage: fc.Arbitrary<[string, Record<string, string>]> = fc.oneof(
    fc.constant<[string, Record<string, string>]>(['none', {}]),
    headerText.map((text): [string, Record<string, string>] => ['garbage key', { 'x-api-key': text }]),
    headerText.map((text): [string, Record<string, string>] => [
      'garbage bearer',
      { authorization: `Bearer ${text}` },
    ]),
    headerText.map((text): [string, Record<string, string>] => [
      'garbage verify token',
      { 'x-verify-token': text },
    ]),
    fc.constantFrom<[string, Record<string, string>]>(
      ['truncated key', { 'x-api-key': context.apiKey.slice(0, -3) }],
      [
        'key with a changed character',
        { 'x-api-key': `${context.apiKey.slice(0, -1)}${context.apiKey.endsWith('A') ? 'B' : 'A'}` },
      ],
      ['key as bearer', { authorization: `Bearer ${context.apiKey}` }],
      ['token as key', { 'x-api-key': context.consoleToken }],
      ['verify token as key', { 'x-api-key': context.verifyToken }],
      ['alg none JWT', { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c3JfMSJ9.' }],
      ['three dots', { authorization: 'Bearer a.b.c' }],
      ['basic auth', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
      ['empty bearer', { authorization: 'Bearer ' }],
      [
        'token with a bad environment',
        { authorization: `Bearer ${context.consoleToken}`, 'x-environment': 'staging' },
      ],
      ['huge key', { 'x-api-key': `sk_sandbox_${'A'.repeat(6_000)}` }],
      ['verify token of the wrong shape', { 'x-verify-token': `${context.verifyToken}.` }],
    ),
  );
  return valid.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...valid) }, { weight: 2, arbitrary: garbage })
    : garbage;
}

/** A value that satisfies the schema where it can: the starting point the spoilers then break. */
export function sampleOf(schema: Record<string, any> | null | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema['example'] !== undefined) return schema['example'];
  if (schema['enum']) return schema['enum'][0];
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries<Record<string, any>>(schema['properties'] ?? {})) {
        out[name] = sampleOf(property, depth + 1);
      }
      return out;
    }
    case 'array':
      return [sampleOf(schema['items'], depth + 1)];
    case 'integer':
    case 'number':
      return schema['minimum'] ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return 'x'.repeat(Math.max(1, schema['minLength'] ?? 1));
    default:
      return null;
  }
}

/** Any JSON value, nasty strings included. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, -0, [], {}, [[[]]], { a: null }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Nesting deep enough to hurt a recursive walker, not so deep that JSON.stringify itself overflows. */
function deeplyNested(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

const utf8 = new TextEncoder();

function jsonBody(schema: Record<string, any> | null): fc.Arbitrary<[string, Uint8Array<ArrayBuffer>]> {
  const base = (sampleOf(schema) ?? {}) as Record<string, unknown>;
  const names = Object.keys(typeof base === 'object' && base ? base : {});
  const encode = (text: string) => utf8.encode(text) as Uint8Array<ArrayBuffer>;
  const spoiledObject = fc
    .record({
      wrongTypes: fc.array(fc.tuple(fc.constantFrom(...(names.length > 0 ? names : ['x'])), wrongValue), {
        maxLength: 3,
      }),
      extra: fc.array(fc.tuple(hostileString, wrongValue), { maxLength: 3 }),
    })
    .map(({ wrongTypes, extra }) => {
      const out: Record<string, unknown> = { ...(typeof base === 'object' && base ? base : {}) };
      for (const [name, value] of wrongTypes) out[name] = value;
      for (const [name, value] of extra) out[name] = value;
      return out;
    });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: spoiledObject.map((value): [string, Uint8Array<ArrayBuffer>] => [
        'spoiled JSON',
        encode(JSON.stringify(value)),
      ]),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(spoiledObject, fc.nat()).map(([value, cut]): [string, Uint8Array<ArrayBuffer>] => {
        const text = JSON.stringify(value);
        return ['truncated JSON', encode(text.slice(0, cut % Math.max(1, text.length)))];
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<[string, Uint8Array<ArrayBuffer>]>(
        [
          'duplicated keys',
          encode(`{"${names[0] ?? 'a'}":1,"${names[0] ?? 'a'}":"x","${names[0] ?? 'a'}":null}`),
        ],
        ['prototype keys', encode('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}')],
        ['deep nesting', encode(deeplyNested(5_000))],
        ['huge number', encode('{"a":1e999999,"b":-0,"c":123456789012345678901234567890}')],
        ['lone surrogate escape', encode('{"a":"\\ud800","\\udc00":"b"}')],
        ['NUL escape', encode('{"a\\u0000":"\\u0000"}')],
        ['not JSON', encode('not json at all')],
        ['empty', new Uint8Array(0)],
        ['top-level array', encode('[1,2,3]')],
        ['top-level string', encode('"x"')],
        ['top-level null', encode('null')],
        ['UTF-16 BOM', new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
        ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0xff, 0x22, 0x7d])],
        ['big string', encode(JSON.stringify({ [names[0] ?? 'a']: 'x'.repeat(2_000_000) }))],
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 200 })
        .map((bytes): [string, Uint8Array<ArrayBuffer>] => ['random bytes', new Uint8Array(bytes)]),
    },
  );
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';

/** A plausible multipart upload (text fields and a file), as text to be truncated or spoiled. */
function multipartText(fields: [string, string][], file: Uint8Array): Uint8Array<ArrayBuffer> {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = utf8.encode(
    `${parts.join('')}--${BOUNDARY}\r\ncontent-disposition: form-data; name="image"; filename="p.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
  );
  const tail = utf8.encode(`\r\n--${BOUNDARY}--\r\n`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head, 0);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

function multipartBody(operation: FuzzOperation): fc.Arbitrary<[string, Uint8Array<ArrayBuffer>]> {
  const fieldNames = Object.keys(operation.bodySchema?.['properties'] ?? { step: 1, challenge_id: 1 });
  const fields = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...fieldNames), hostileString), hostileString), {
    maxLength: 5,
  });
  // A JPEG start marker and then noise: passes a first sniff, fails the decoder.
  const file = fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...bytes]));
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fields, file, fc.nat())
        .map(([pairs, bytes, cut]): [string, Uint8Array<ArrayBuffer>] => {
          const whole = multipartText(pairs, bytes);
          return ['truncated multipart', whole.slice(0, cut % whole.length)];
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fields, file)
        .map(([pairs, bytes]): [string, Uint8Array<ArrayBuffer>] => [
          'spoiled multipart',
          multipartText(pairs, bytes),
        ]),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<[string, Uint8Array<ArrayBuffer>]>(
        ['boundary only', utf8.encode(`--${BOUNDARY}--\r\n`) as Uint8Array<ArrayBuffer>],
        [
          'no closing boundary',
          utf8.encode(
            `--${BOUNDARY}\r\ncontent-disposition: form-data; name="image"; filename="a"\r\n\r\nabc`,
          ) as Uint8Array<ArrayBuffer>,
        ],
        [
          'part without headers',
          utf8.encode(`--${BOUNDARY}\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`) as Uint8Array<ArrayBuffer>,
        ],
        ['empty', new Uint8Array(0)],
      ),
    },
  );
}

function contentTypeFor(operation: FuzzOperation): fc.Arbitrary<string | null> {
  const right =
    operation.bodyType === 'multipart' ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json';
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(right) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        null,
        'text/plain',
        'application/json; charset=utf-16',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(200)}`,
        'application/xml',
        'application/json, application/json',
        ';;;',
        'application/merge-patch+json',
      ),
    },
    { weight: 1, arbitrary: headerText },
  );
}

/** One spoiled request for the operation: every part drawn, most of them hostile. */
export function requestFor(operation: FuzzOperation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const segments = fc.tuple(...operation.pathParams.map((name) => pathSegment(context.ids[name] ?? [])));
  const body: fc.Arbitrary<[string, Uint8Array<ArrayBuffer>] | null> =
    operation.bodyType === 'json'
      ? jsonBody(operation.bodySchema)
      : operation.bodyType === 'multipart'
        ? multipartBody(operation)
        : fc.oneof(fc.constant(null), jsonBody(null));
  const idempotencyKey = fc.option(headerText, { freq: 3 });
  return fc
    .record({
      segments,
      query: queryString(operation),
      credential: credentials(operation, context),
      body,
      contentType: contentTypeFor(operation),
      idempotencyKey,
    })
    .map(({ segments: values, query, credential, body: drawn, contentType, idempotencyKey: key }) => {
      let index = 0;
      const path = operation.path.replace(/\{(\w+)\}/g, () => values[index++] as string);
      const headers: Record<string, string> = { ...credential[1] };
      const spoiled = [`credential: ${credential[0]}`];
      // GET and HEAD cannot carry a body in the fetch API.
      const bodyAllowed = operation.method !== 'GET' && operation.method !== 'HEAD';
      if (drawn && bodyAllowed) {
        spoiled.push(`body: ${drawn[0]}`);
        if (contentType !== null) headers['content-type'] = contentType;
        spoiled.push(`content-type: ${contentType}`);
      }
      if (key !== null) {
        headers['idempotency-key'] = key;
        spoiled.push('idempotency-key');
      }
      const request: FuzzRequest = {
        method: operation.method,
        target: `${path}${query}`,
        headers,
        body: drawn && bodyAllowed ? drawn[1] : undefined,
        spoiled,
      };
      // fast-check prints counterexamples with this: short, where the raw value can be megabytes.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** A short, printable account of a request for a failure message. */
export function describeRequest(request: FuzzRequest): string {
  const target =
    request.target.length > 300
      ? `${request.target.slice(0, 300)}… (${request.target.length} chars)`
      : request.target;
  return JSON.stringify({
    method: request.method,
    target,
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, value.slice(0, 80)]),
    ),
    spoiled: request.spoiled,
    bodyStart: request.body ? new TextDecoder().decode(request.body.slice(0, 200)) : null,
    bodyLength: request.body?.length ?? 0,
  });
}
