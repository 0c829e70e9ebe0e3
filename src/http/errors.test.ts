// The error handler's answers: a queue that is full says when to come back (docs/errors.md: the
// 503s TRAINING_BUSY and KNOWLEDGE_BUSY carry Retry-After), other refusals do not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { AppError, type ErrorCode } from '../shared/errors.js';
import { installErrorHandling } from './errors.js';

async function answerTo(code: ErrorCode, details?: Record<string, unknown>) {
  const app = Fastify();
  installErrorHandling(app);
  app.get('/fail', async () => {
    throw new AppError(code, undefined, details);
  });
  await app.ready();
  try {
    return await app.inject('/fail');
  } finally {
    await app.close();
  }
}

describe('error answers', () => {
  test('a full search queue: 503 KNOWLEDGE_BUSY with its Limit and Retry-After: 5', async () => {
    const res = await answerTo('KNOWLEDGE_BUSY', { Limit: 'SearchQueue' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.deepEqual([res.json().Code, res.json().Limit], ['KNOWLEDGE_BUSY', 'SearchQueue']);
  });

  test('a full training queue: 503 TRAINING_BUSY with Retry-After: 5', async () => {
    const res = await answerTo('TRAINING_BUSY', { Limit: 'TrainingQueue', Max: 8 });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.json().Code, 'TRAINING_BUSY');
  });

  test('other refusals carry no Retry-After', async () => {
    const res = await answerTo('NOT_FOUND');
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['retry-after'], undefined);
    assert.equal(res.json().Code, 'NOT_FOUND');
  });
});
