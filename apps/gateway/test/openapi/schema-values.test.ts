import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, it } from 'vitest';
import type { Schema } from './conformance.ts';
import { type SchemaReader, valueOf, violationsOf } from './schema-values.ts';

const ajv = new Ajv2020({ strict: false });
const reader: SchemaReader = { accepts: (schema, value) => ajv.validate(schema, value), resolve: (schema) => schema };

it('makes the smallest value a schema takes: its required properties, a PATCH body its first, a match of a pattern', () => {
  const counted = { type: 'object', properties: { note: { type: 'string' }, count: { type: 'integer', minimum: 3 } }, required: ['count'] };
  expect(valueOf(counted, reader)).toEqual({ count: 3 });
  expect(valueOf({ type: 'object', properties: { note: { type: 'string' } }, minProperties: 1 }, reader)).toEqual({ note: 'x' });
  expect(valueOf({ type: 'string', pattern: '^AC[0-9a-f]{4}$' }, reader)).toMatch(/^AC[0-9a-f]{4}$/);
  expect(valueOf({ oneOf: [{ type: 'object', properties: { kind: { const: 'dev' } }, required: ['kind'] }] }, reader)).toEqual({
    kind: 'dev',
  });
});

it('breaks each rule once, at every depth, with a value the schema refuses', () => {
  const schema: Schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    minProperties: 1,
    properties: {
      name: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
      kind: { enum: ['a', 'b'] },
      count: { type: 'integer', minimum: 1, maximum: 5 },
      tags: { type: 'array', items: { type: 'string', minLength: 2 }, maxItems: 1 },
    },
  };
  const violations = violationsOf(schema, reader);
  expect(violations.map(({ rule }) => rule)).toEqual([
    'type',
    'required name',
    'minProperties',
    'additionalProperties',
    'type at name',
    'maxLength at name',
    'pattern at name',
    'enum at kind',
    'type at count',
    'minimum at count',
    'maximum at count',
    'integer at count',
    'type at tags',
    'maxItems at tags',
    'type at tags[0]',
    'minLength at tags[0]',
  ]);
  for (const { value } of violations) expect(reader.accepts(schema, value)).toBe(false);
});

it('keeps only what the whole of a union refuses', () => {
  // A string is no null, but the nullable string takes it.
  const violations = violationsOf({ anyOf: [{ type: 'string', maxLength: 2 }, { type: 'null' }] }, reader);
  expect(violations).toEqual([
    { rule: 'type', value: 1 },
    { rule: 'maxLength', value: 'xxx' },
  ]);
});

it('breaks a pattern that forbids one word with that word', () => {
  expect(violationsOf({ type: 'string', pattern: '^(?!live$)' }, reader)).toEqual([
    { rule: 'type', value: 1 },
    { rule: 'pattern', value: 'live' },
  ]);
});
