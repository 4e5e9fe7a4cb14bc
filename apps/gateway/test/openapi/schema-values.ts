import { createRequire } from 'node:module';
import type RandExpModule from 'randexp';
import type { Schema } from './conformance.ts';

// CommonJS whose module.exports is the class, while its types describe an ES default export.
const RandExp = createRequire(import.meta.url)('randexp') as typeof RandExpModule.default;

/** The served document's schemas, to check the values made from them. */
export interface SchemaReader {
  accepts(schema: Schema, value: unknown): boolean;
  resolve(schema: Schema): Schema;
}

/** The keywords of the document's schemas that values are made from. */
interface Keywords {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  minProperties?: number;
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/**
 * How a value is filled in: with the required properties only, or every property; strings of a flavour where the
 * schema takes them (a plain one where it does not), numbers at an end of their range.
 */
export interface Fill {
  optionals: boolean;
  text?: (schema: Schema) => string | undefined;
  number?: (schema: Schema) => number | undefined;
}

export const requiredOnly: Fill = { optionals: false };

/** What a client generated from the document may send where it names no format's example. */
const formatSamples: Record<string, string> = {
  email: 'someone@example.com',
  uri: 'https://example.com/',
  'date-time': '2025-01-01T00:00:00Z',
};

const typed = (schema: Schema) => 'type' in schema || '$ref' in schema;
const patternsOf = (s: Keywords) =>
  [s.pattern, ...(s.allOf ?? []).map((sub) => (sub as Keywords).pattern)].filter((pattern) => pattern !== undefined);

/** A string the pattern matches, drawn from a seed so that every run sends the same. */
function matching(pattern: string, seed: number): string {
  const draw = new RandExp(pattern);
  draw.max = 3;
  let state = seed;
  draw.randInt = (from, to) => {
    state = (state * 48_271) % 2_147_483_647;
    return from + (state % (to - from + 1));
  };
  return draw.gen();
}

function* stringsOf(s: Keywords): Generator<string> {
  yield 'x'.repeat(Math.max(s.minLength ?? 0, 1));
  if (s.format && formatSamples[s.format]) yield formatSamples[s.format]!;
  for (const pattern of patternsOf(s)) for (let seed = 1; seed <= 20; seed++) yield matching(pattern, seed);
}

function objectOf(s: Keywords, reader: SchemaReader, fill: Fill): Record<string, unknown> {
  const properties = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const chosen = properties.filter(([name]) => fill.optionals || required.has(name));
  // A body that must carry some property (a PATCH) gets its first ones.
  for (const entry of properties) if (chosen.length < (s.minProperties ?? 0) && !chosen.includes(entry)) chosen.push(entry);
  const value: Record<string, unknown> = Object.fromEntries(chosen.map(([name, property]) => [name, valueOf(property, reader, fill)]));
  const entries = s.additionalProperties;
  if (typeof entries === 'object' && (fill.optionals || Object.keys(value).length < (s.minProperties ?? 0))) {
    value[String(valueOf(s.propertyNames ?? { type: 'string' }, reader))] = valueOf(entries, reader, fill);
  }
  return value;
}

/** Values to try, most wanted first: the fill's, then the document's own (const, enum, example, default), then made. */
function* candidates(s: Keywords, reader: SchemaReader, fill: Fill): Generator<unknown> {
  const numeric = s.type === 'integer' || s.type === 'number';
  const wanted = s.type === 'string' ? fill.text?.(s as Schema) : numeric ? fill.number?.(s as Schema) : undefined;
  if (wanted !== undefined) yield wanted;
  if ('const' in s) yield s.const;
  yield* s.enum ?? [];
  if ('example' in s) yield s.example;
  yield* s.examples ?? [];
  if ('default' in s) yield s.default;
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) if (typed(branch)) yield valueOf(branch, reader, fill);
  if (s.type === 'object') yield objectOf(s, reader, fill);
  if (s.type === 'array') {
    const item = valueOf(s.items ?? {}, reader, fill);
    yield Array.from({ length: Math.max(s.minItems ?? 0, fill.optionals ? 1 : 0) }, () => item);
  }
  if (s.type === 'string') yield* stringsOf(s);
  if (numeric) yield* [1, s.minimum, s.maximum];
  if (s.type === 'boolean') yield false;
  if (s.type === 'null') yield null;
}

/** A value the schema takes: the first candidate the document's own schema accepts. */
export function valueOf(schema: Schema, reader: SchemaReader, fill: Fill = requiredOnly): unknown {
  const resolved = reader.resolve(schema);
  for (const candidate of candidates(resolved as Keywords, reader, fill)) if (reader.accepts(resolved, candidate)) return candidate;
  throw new Error(`no value found that ${JSON.stringify(resolved).slice(0, 300)} takes: give it an example`);
}

/** A value that breaks a rule of the schema, with the rule and where it is, e.g. `maxLength at git.commit`. */
export interface Violation {
  rule: string;
  value: unknown;
}

/** Strings that break patterns: a control character, punctuation, a space, and words a pattern names (`(?!live$)`). */
function offPattern(pattern: string, s: Keywords): string | undefined {
  const regex = new RegExp(pattern, 'u');
  const off = ['\u0001', '!', ' ', '-', 'x', 'X', '0', ...(pattern.match(/[a-z]{3,}/g) ?? [])].filter((text) => !regex.test(text));
  const fits = (text: string) => text.length >= (s.minLength ?? 0) && text.length <= (s.maxLength ?? Infinity);
  return off.find(fits) ?? off[0];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const join = (at: string, name: string) => (at ? `${at}.${name}` : name);

/**
 * For each rule of the schema (type, enum, maxLength, minLength, pattern, minimum, maximum, required, minProperties,
 * additionalProperties, propertyNames, minItems, maxItems), at every depth, a value that breaks that rule and keeps
 * the others where it can: a smallest valid value with one thing changed. Only values the whole schema refuses are
 * kept, since a value one branch of a union refuses another may take.
 */
export function violationsOf(schema: Schema, reader: SchemaReader, at = ''): Violation[] {
  const resolved = reader.resolve(schema);
  const s = resolved as Keywords;
  const valid = valueOf(resolved, reader);
  const found: Violation[] = [];
  const own = (rule: string, value: unknown) => found.push({ rule: at ? `${rule} at ${at}` : rule, value });
  const inner = (where: string, sub: Schema, place: (value: unknown) => unknown) => {
    for (const { rule, value } of violationsOf(sub, reader, where)) found.push({ rule, value: place(value) });
  };

  if (s.type) own('type', s.type === 'string' ? 1 : 'x');
  if ('const' in s || s.enum) own('enum', 'none-of-these');
  if (typeof valid === 'string') {
    if (s.maxLength !== undefined) own('maxLength', valid.padEnd(s.maxLength + 1, 'x'));
    if (s.minLength) own('minLength', valid.slice(0, s.minLength - 1));
    for (const pattern of patternsOf(s)) {
      const off = offPattern(pattern, s);
      if (off !== undefined) own('pattern', off);
    }
  }
  if (typeof valid === 'number') {
    if (s.minimum !== undefined) own('minimum', s.minimum - 1);
    if (s.maximum !== undefined) own('maximum', s.maximum + 1);
    if (s.type === 'integer') own('integer', valid + 0.5);
  }
  if (isObject(valid)) {
    for (const name of s.required ?? []) own(`required ${name}`, Object.fromEntries(Object.entries(valid).filter(([key]) => key !== name)));
    if (s.minProperties) own('minProperties', {});
    if (s.additionalProperties === false) own('additionalProperties', { ...valid, unexpected: 'x' });
    const entries = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    if (entries) {
      const key = String(valueOf(s.propertyNames ?? { type: 'string' }, reader));
      const entry = valueOf(entries, reader);
      for (const { rule, value } of s.propertyNames ? violationsOf(s.propertyNames, reader) : [])
        if (typeof value === 'string') own(`propertyNames ${rule}`, { ...valid, [value]: entry });
      inner(join(at, key), entries, (value) => ({ ...valid, [key]: value }));
    }
    for (const [name, property] of Object.entries(s.properties ?? {}))
      inner(join(at, name), property, (value) => ({ ...valid, [name]: value }));
  }
  if (Array.isArray(valid) && s.items) {
    const item = valueOf(s.items, reader);
    if (s.minItems)
      own(
        'minItems',
        Array.from({ length: s.minItems - 1 }, () => item),
      );
    if (s.maxItems !== undefined)
      own(
        'maxItems',
        Array.from({ length: s.maxItems + 1 }, () => item),
      );
    inner(`${at}[0]`, s.items, (value) => [value, ...valid.slice(1)]);
  }
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) if (typed(branch)) inner(at, branch, (value) => value);
  return found.filter(({ value }) => !reader.accepts(resolved, value));
}
