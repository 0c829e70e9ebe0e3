// An integer without a minimum and a maximum anywhere in a request schema (nested in arrays,
// unions, records) stops the route's registration; bounded ones pass.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { BoundedInteger, refuseUnboundedIntegers, unboundedIntegers } from './bounded-integers.js';

describe('bounded integers', () => {
  test('the walk finds unbounded integers wherever they nest, and only those', () => {
    const schema = Type.Object({
      Fine: BoundedInteger(0, 10),
      Open: Type.Integer({ minimum: 1 }),
      List: Type.Array(Type.Object({ Deep: Type.Integer({ maximum: 5 }) })),
      Either: Type.Union([Type.String(), Type.Integer()]),
      Map: Type.Record(Type.String(), Type.Integer()),
      Exclusive: Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 100 }),
      Number: Type.Number(),
    });
    assert.deepEqual(unboundedIntegers(schema, 'body').sort(), ['body.Either', 'body.List[].Deep', 'body.Map.*', 'body.Open'].sort());
  });

  test('a route with one is refused at registration, naming where; a bounded one registers', () => {
    const app = Fastify();
    refuseUnboundedIntegers(app);
    assert.throws(
      () => app.post('/things/:id', { schema: { params: Type.Object({ id: Type.Integer() }), body: Type.Object({ Items: Type.Array(Type.Integer({ minimum: 0 })) }) } }, async () => ({})),
      /POST \/things\/:id: integers without a minimum and maximum at params\.id, body\.Items\[\]/,
    );
    assert.doesNotThrow(() => app.post('/fine', { schema: { querystring: Type.Object({ n: BoundedInteger(1, 9) }) } }, async () => ({})));
  });
});
