// The small part of autocannon's programmatic API that the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface Request extends RequestParams {
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | null;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p99: number;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
