// Every failure leaves as `{Code, Message, ...}` with the catalogue's status — Fastify's own
// failures (bad JSON, body too large, schema violations, unknown routes) included.
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.js';

function fromFastify(error: FastifyError): AppError | null {
  if (error.validation) {
    const first = error.validation[0];
    const params = (first?.params ?? {}) as Record<string, unknown>;
    const where = [error.validationContext, ...(first?.instancePath ?? '').split('/').filter(Boolean)];
    if (typeof params.missingProperty === 'string') where.push(params.missingProperty);
    if (typeof params.additionalProperty === 'string') where.push(params.additionalProperty);
    const field = where.filter(Boolean).join('.');
    const reason = typeof params.additionalProperty === 'string' ? 'is not a known field' : (first?.message ?? 'is invalid');
    return new AppError('INVALID_REQUEST', `${field} ${reason}`, { Field: field });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
  }
  if (error instanceof SyntaxError) return new AppError('INVALID_JSON');
  if (error.statusCode === 429) return new AppError('RATE_LIMITED');
  if (error.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (error.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('INVALID_REQUEST', error.message);
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastify(error);
    if (known) {
      // a full training, indexing or search queue empties in seconds (understanding/trainer.ts, knowledge/)
      if (known.code === 'TRAINING_BUSY' || known.code === 'KNOWLEDGE_BUSY' || known.code === 'BOT_FILE_BUSY' || known.code === 'IMPORT_BUSY') reply.header('Retry-After', '5');
      return reply.status(known.status).send(known.toBody());
    }
    request.log.error({ err: error }, 'unexpected failure');
    const internal = new AppError('INTERNAL');
    return reply.status(internal.status).send(internal.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`);
    return reply.status(error.status).send(error.toBody());
  });
}
