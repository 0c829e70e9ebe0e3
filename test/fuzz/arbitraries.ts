// Generators of hostile requests (fast-check arbitraries): wrong types, huge and deeply nested
// bodies, control characters, invalid UTF-8, very long ids, injection strings, random headers and
// credentials. Values may hold placeholders (@@USER@@ ...) that the sender fills in with the
// fixture's current ids, so a case still aims at real data after the fixture was rebuilt.
import fc from 'fast-check';
import { supportBot } from '../support/fixtures.js';
import { isStrictObject, sampleOf, type RouteInfo } from '../support/routes.js';

export const PLACEHOLDERS = ['@@USER@@', '@@WEBUSER@@', '@@THEIRUSER@@', '@@BOTKEY@@'] as const;

/** Strings that have broken some parser, template engine, query or regex somewhere. */
export const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE bots; --",
  'Robert"); DELETE FROM conversations; --',
  '1; SELECT pg_sleep(30) --',
  '$1',
  '?',
  '{{constructor.constructor("return process")()}}',
  '{{__proto__}}',
  '{{last_user_text}}{{last_user_text}}',
  '[[company]]',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile input string, deliberately not a template
  '${process.exit(1)}',
  '#{7*7}',
  '<script>alert(1)</script>',
  '<!--',
  ']]>',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '{"$gt": ""}',
  '(a+)+$',
  '(.*a){25}',
  `${'a'.repeat(40)}!`,
  '\\',
  '\\u0000',
  '%00',
  '%s%s%s%n',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x7fffffff',
  'RESET',
  'READY',
  'PENDING',
  '*',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'a\r\nX-Injected: 1',
  '\u202eevil',
  '\ufeffBOM',
  '\ud800',
  '\udfff\ud800',
  'e\u0301\u0301\u0301',
  '🤖'.repeat(20),
  'ｆｕｌｌｗｉｄｔｈ',
] as const;

const CONTROL = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f', '\u0085', '\u2028', '\u2029', '\ufffe', '\uffff', '\ud800', '\udc00'];

export const controlString = fc.string({ unit: fc.oneof(fc.constantFrom(...CONTROL), fc.constantFrom('a', ' ', 'é', '😀')), minLength: 1, maxLength: 30 });

/** Longer than any field allows (256 for ids, 16 KiB for texts, 64 KiB for values). */
export const longString = fc.tuple(fc.constantFrom(257, 1000, 16_385, 65_537, 70_000), fc.constantFrom('x', 'é', '😀', '\u0001', "'")).map(([n, c]) => c.repeat(n));

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 2, arbitrary: controlString },
  { weight: 1, arbitrary: longString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t') },
  { weight: 2, arbitrary: fc.constantFrom(...PLACEHOLDERS) },
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 0.5, -2.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '$where', '', ' ', 'UserId ', 'a.b', 'a[0]', '🤖', 'x'.repeat(300), 'user\u0001id'),
  fc.string({ maxLength: 12 }),
);

/** A value of any type: what a member of the wrong type, or an unknown one, holds. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileKey, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** The same, small enough that a body of a few stays under the body size limit. */
export const smallHostileValue = hostileValue.filter((value) => JSON.stringify(value ?? null).length < 2000);

export interface BodySpec {
  /** text (sent as UTF-8) or raw bytes (invalid UTF-8) */
  payload: string | number[];
  contentType?: string;
  /** headers the body needs to mean anything (DIRECTION for Parts) */
  headers?: Record<string, string>;
  note: string;
}

const json = (value: unknown, note: string, headers?: Record<string, string>): BodySpec => ({ payload: JSON.stringify(value), contentType: 'application/json', note, headers });

const SYNTAX_ERRORS = [
  '{',
  '{"Text": "a",}',
  "{'Text': 'a'}",
  '{"Text": NaN}',
  '{"Text": undefined}',
  '{"a":1}{"b":2}',
  '/* comment */ {}',
  '\ufeff{"Text":"bom"}',
  '{"Text":"a\nb"}',
  '{"Text":"\\x41"}',
  '{"Text":"\\uZZZZ"}',
  '{"n":-}',
  '{"n":01}',
  '[',
  ']',
  '{"Text":"unterminated',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

/** Deep nesting, built as text (a generator that recursed would overflow first). */
const deepBody = fc.record({ depth: fc.integer({ min: 32, max: 20_000 }), shape: fc.constantFrom('parts', 'object', 'array', 'variables', 'settings') }).map(({ depth, shape }): BodySpec => {
  const note = `${shape} nested ${depth} deep`;
  const text = (open: string, inner: string, close: string) => open.repeat(depth) + inner + close.repeat(depth);
  switch (shape) {
    case 'parts':
      return {
        payload: `{"UserId":"@@USER@@","Text":"deep","Parts":[${text('{"Type":0,"Text":"x","Parts":[', '', ']}')}]}`,
        contentType: 'application/json',
        headers: { direction: 'OPERATOR' },
        note,
      };
    case 'object':
      return { payload: text('{"UserId":', '"x"', '}'), contentType: 'application/json', note };
    case 'array':
      return { payload: text('[', '', ']'), contentType: 'application/json', note };
    case 'variables':
      return { payload: `{"UserId":"@@USER@@","Variables":{"v":${text('{"v":', '1', '}')}}}`, contentType: 'application/json', note };
    default:
      return { payload: `{"channels":${text('{"web":', '{}', '}')}}`, contentType: 'application/json', note };
  }
});

const hugeBody = fc
  .constantFrom(250_000, 262_000, 262_200, 300_000, 5_300_000)
  .map((n): BodySpec => ({ payload: `{"Text":"${'x'.repeat(n)}"}`, contentType: 'application/json', note: `a ${n}-character Text` }));

const INVALID_UTF8 = [[0xff], [0xfe], [0xc0, 0xaf], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80]];
const invalidUtf8Body = fc
  .record({
    prefix: fc.constantFrom('{"Text":"', '{"UserId":"', '{"Name":"', '{"Email":"', '{"', ''),
    pieces: fc.array(
      fc.oneof(
        fc.constantFrom(...INVALID_UTF8),
        fc.integer({ min: 0, max: 255 }).map((b) => [b]),
      ),
      { minLength: 1, maxLength: 20 },
    ),
    suffix: fc.constantFrom('"}', '":1}', ''),
  })
  .map(
    ({ prefix, pieces, suffix }): BodySpec => ({
      payload: [...Buffer.from(prefix), ...pieces.flat(), ...Buffer.from(suffix)],
      contentType: 'application/json',
      note: 'invalid UTF-8',
    }),
  );

const YAML_BODIES = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n',
  'name: !!js/function "function () { return process }"\n',
  'format: colloquy/bot@1\nname: *undefined_alias\n',
  '? [a, b]\n: c\n',
  '<<: {name: x}\nformat: colloquy/bot@1\n',
  '---\na: 1\n---\nb: 2\n',
  'a: !!binary AAAA\n',
  '\t- tab indented',
];
const yamlBody = fc.constantFrom(...YAML_BODIES).map((payload): BodySpec => ({ payload, contentType: 'application/yaml', note: 'YAML' }));

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/*',
  '*/*',
  ';',
  'x'.repeat(2000),
];

const syntaxBody = fc.constantFrom(...SYNTAX_ERRORS).map((payload): BodySpec => ({ payload, contentType: 'application/json', note: 'malformed JSON' }));
const dupesBody = fc.constant<BodySpec>({
  payload: '{"UserId":"@@USER@@","userid":"dupe-user","USERID":null,"Text":"a","text":1,"Text":{"x":1}}',
  contentType: 'application/json',
  note: 'duplicate members',
});

/** Member names of the console's bodies (their schemas are not in /openapi.json). */
const CONSOLE_MEMBERS = ['Text', 'Mode', 'Days', 'Message', 'Email', 'Password', 'AccountId'];

function memberNames(route: RouteInfo): string[] {
  const names = Object.keys(route.body?.properties ?? {});
  if (names.length > 0) return names;
  return route.template.startsWith('/console/') ? CONSOLE_MEMBERS : ['UserId', 'Text', 'channels', 'simplifiedAuth'];
}

/** A bot file, with one value anywhere in it replaced, removed, or joined by an unknown member. */
const BOT = supportBot();
const BOT_PATHS: Array<Array<string | number>> = [];
(function walk(value: unknown, path: Array<string | number>) {
  BOT_PATHS.push(path);
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, Array.isArray(value) ? Number(k) : k]);
})(BOT, []);
const botFileBody = fc
  .record({ at: fc.nat({ max: BOT_PATHS.length - 1 }), how: fc.constantFrom('set', 'delete', 'add'), value: hostileValue, key: hostileKey })
  .map(({ at, how, value, key }): BodySpec => {
    const file = structuredClone(BOT);
    const path = BOT_PATHS[at];
    let parent: any = file;
    for (const step of path.slice(0, -1)) parent = parent[step];
    const last = path.at(-1);
    if (last === undefined) return json(value, 'a bot file replaced by a hostile value');
    if (how === 'delete') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
    else if (how === 'add' && parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last])) parent[last][key] = value;
    else parent[last] = value;
    return json(file, `bot file: ${how} at $.${path.join('.')}`);
  });

/** Hostile members over the smallest valid body: wrong types, nulls, unknown names, placeholders. */
const membersBody = (route: RouteInfo) => {
  const names = memberNames(route);
  const base = route.body && isStrictObject(route.body) ? (sampleOf(route.body) as object) : {};
  const name = fc.oneof({ weight: 4, arbitrary: fc.mixedCase(fc.constantFrom(...names)) }, { weight: 1, arbitrary: hostileKey });
  return fc.array(fc.tuple(name, hostileValue), { minLength: 1, maxLength: 4 }).map((members) => json({ ...base, ...Object.fromEntries(members) }, 'hostile members'));
};

/** Any hostile body for this route. */
export function bodyArb(route: RouteInfo): fc.Arbitrary<BodySpec> {
  const base = route.body && isStrictObject(route.body) ? sampleOf(route.body) : {};
  const wrongType = fc.constantFrom(...CONTENT_TYPES).map((contentType): BodySpec => ({ payload: JSON.stringify(base), contentType, note: `content type ${contentType.slice(0, 40)}` }));
  const isBotFile = route.body !== null && route.body.type === undefined;
  return fc.oneof(
    { weight: 6, arbitrary: isBotFile ? botFileBody : membersBody(route) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => json(v, 'random JSON')) },
    { weight: 2, arbitrary: deepBody },
    { weight: 1, arbitrary: hugeBody },
    { weight: 2, arbitrary: invalidUtf8Body },
    { weight: 2, arbitrary: syntaxBody },
    { weight: 1, arbitrary: dupesBody },
    { weight: 1, arbitrary: yamlBody },
    { weight: 1, arbitrary: wrongType },
  );
}

/** encodeURIComponent throws on lone surrogates: those go as their replacement character */
const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** A path parameter value: encoded hostile text, broken percent-encoding, or a very long id. */
export const hostileSegment = fc.oneof(
  { weight: 4, arbitrary: hostileString.map((s) => encode(s.slice(0, 8000))) },
  { weight: 2, arbitrary: fc.constantFrom('%', '%zz', '%C3%28', '%FF%FE', '%00', '%2e%2e', '..', '.', '%2F', 'a%2Fb', '%E0%80%AF', '%ED%A0%80', '%0A%0D') },
  { weight: 1, arbitrary: fc.constantFrom(101, 257, 2000, 8000).map((n) => 'k'.repeat(n)) },
);

const QUERY_NAMES = ['userid', 'UserId', 'USERID', 'type', 'name', 'state', 'mode', 'operator', 'days', 'message', 'client', 'bot', 'HistoryLimit'];
export const hostileQuery = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: hostileKey }),
      fc.oneof({ weight: 4, arbitrary: hostileString.map((s) => encode(s.slice(0, 8000))) }, { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%C3%28', '') }),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${v}`).join('&'));

/** Credentials, by name; the sender turns each into headers for the route at hand. */
export const CREDENTIALS = [
  'right',
  'none',
  'admin',
  'account',
  'bot',
  'theirAccount',
  'theirBot',
  'accountKey',
  'botKey',
  'botSecret',
  'webKey',
  'session',
  'theirSession',
  'share',
  'tampered',
  'algNone',
  'garbage',
  'basic',
  'twoTokens',
  'huge',
] as const;
export type CredentialName = (typeof CREDENTIALS)[number];
export interface AuthSpec {
  credential: CredentialName;
  /** where it goes: the Authorization header (as a bearer), or the console's session cookie */
  as: 'bearer' | 'cookie';
}
export const hostileAuth: fc.Arbitrary<AuthSpec> = fc.record({ credential: fc.constantFrom(...CREDENTIALS), as: fc.constantFrom<'bearer' | 'cookie'>('bearer', 'bearer', 'cookie') });

const headerValue = fc.oneof(hostileString, fc.constantFrom('BOT', 'OPERATOR', 'USER', 'web', 'custom', 'telegram', '1', '"1"', 'W/"999"', '*', 'text/html', 'text/event-stream', 'null'));
export const hostileHeaders = fc.record(
  {
    'user-id': headerValue,
    direction: headerValue,
    channel: headerValue,
    'if-match': headerValue,
    accept: headerValue,
    'x-request-id': fc.oneof(fc.constantFrom('fuzz-1', 'a'.repeat(128), 'a'.repeat(129), 'a b', '../x'), hostileString),
    origin: fc.oneof(fc.constantFrom('null', 'http://evil.example', 'https://example.org'), hostileString),
    'sec-fetch-site': fc.constantFrom('cross-site', 'same-site', 'same-origin', 'none'),
    'x-forwarded-for': fc.oneof(fc.constantFrom('127.0.0.1, 10.0.0.1', '::1'), hostileString),
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x'),
    'accept-language': hostileString,
  },
  { requiredKeys: [] },
);

// Values that reached a 500 on PostgreSQL in issue 22's second hardening round (findings 10 and
// 13): a lone UTF-16 surrogate in any string member, and integers past what a column holds. The
// general properties above draw them too, but too rarely to reach every member of every route.

const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];
/** A string with at least one unpaired surrogate (JSON.stringify sends it as a `\ud800` escape). */
export const loneSurrogateString = fc
  .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...LONE_SURROGATES), fc.string({ maxLength: 6 }), fc.boolean())
  .map(([before, lone, after, twice]) => `${before}${lone}${after}${twice ? lone : ''}`);

/** Integers and numbers as raw JSON text: 2^31, 2^53 + 1 (not a double), 1e308, -2^63, ... */
export const HUGE_NUMBERS = [
  '2147483648',
  '2147483647',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '-9007199254740993',
  '1e308',
  '-1e308',
  '1e21',
  '99999999999999999999999999',
  '-9223372036854775808',
  '0.5',
  '-0',
] as const;
export const hugeNumberText = fc.constantFrom(...HUGE_NUMBERS);

const typesOf = (schema: any): string[] => [schema?.type, ...(schema?.anyOf ?? schema?.oneOf ?? []).map((s: any) => s?.type)].flat().filter(Boolean);

/** The body members of a route whose schema takes one of these JSON types. */
export function membersOfType(route: RouteInfo, types: string[]): string[] {
  return Object.entries<any>(route.body?.properties ?? {})
    .filter(([, schema]) => typesOf(schema).some((t) => types.includes(t)))
    .map(([name]) => name);
}

/** The smallest valid body with lone surrogates in one or more string members (and in a Variables name and value). */
export function loneSurrogateBody(route: RouteInfo): fc.Arbitrary<BodySpec> {
  const base = route.body && isStrictObject(route.body) ? (sampleOf(route.body) as Record<string, unknown>) : {};
  const strings = membersOfType(route, ['string']);
  const objects = membersOfType(route, ['object']);
  return fc
    .record({
      members: fc.subarray(strings.length ? strings : memberNames(route), { minLength: 1 }),
      value: loneSurrogateString,
      map: objects.length ? fc.option(fc.tuple(fc.constantFrom(...objects), loneSurrogateString, loneSurrogateString), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ members, value, map }) => {
      // a user id names the fixture's conversation, so that the other members reach its turn
      const body: Record<string, unknown> = { ...base, ...Object.fromEntries(members.map((m) => [m, value])) };
      for (const id of ['UserId', 'userid']) if (id in body && members.length > 1) body[id] = '@@USER@@';
      if (map) body[map[0]] = { [map[1]]: map[2] };
      return json(body, `lone surrogates in ${[...members, ...(map ? [map[0]] : [])].join(', ')}`);
    });
}

/** The smallest valid body with a huge number in one numeric member, as raw JSON text. */
export function hugeNumberBody(route: RouteInfo): fc.Arbitrary<BodySpec> {
  const base = route.body && isStrictObject(route.body) ? (sampleOf(route.body) as Record<string, unknown>) : {};
  const numeric = membersOfType(route, ['integer', 'number']);
  return fc.record({ member: fc.constantFrom(...numeric), number: hugeNumberText }).map(({ member, number }) => ({
    payload: JSON.stringify({ ...base, [member]: '@@NUMBER@@' }).replace('"@@NUMBER@@"', number),
    contentType: 'application/json',
    note: `${member}: ${number}`,
  }));
}

/** Query names that take integers somewhere (limit, days, versions, history and share hours). */
const INTEGER_QUERY_NAMES = ['limit', 'days', 'Version', 'version', 'from', 'to', 'HistoryLimit', 'hours', 'offset', 'before', 'after'];
export const hugeNumberQuery = fc
  .array(fc.tuple(fc.constantFrom(...INTEGER_QUERY_NAMES), hugeNumberText), { minLength: 1, maxLength: 3 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
