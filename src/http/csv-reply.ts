// A CSV answer, the same for every CSV the server writes (analytics, the audit log): a download
// with a name, never cached, never sniffed, written as its chunks come when it is a generator.
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';

export const CsvResponse = { 200: { description: "CSV (RFC 4180, header row, CRLF; formula-looking cells prefixed with ')", content: { 'text/csv': { schema: Type.String() } } } };

export function sendCsv(reply: FastifyReply, name: string, body: string | AsyncGenerator<string>) {
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  return reply.send(typeof body === 'string' ? body : Readable.from(body));
}
