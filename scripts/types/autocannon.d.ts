// The part of autocannon's API the bench and the load test use (the package ships no
// types, and @types/autocannon would be one more install for two call sites).
declare module 'autocannon' {
  // `context` is whatever the caller keeps per connection, hence any.
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Record<string, unknown>, context: any) => Request;
    onResponse?: (status: number, body: string, context: any, headers: Record<string, string>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    setupClient?: (client: { on(event: string, listener: (...args: unknown[]) => void): void }) => void;
    [option: string]: unknown;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    min: number;
    total: number;
    [percentile: string]: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
    [field: string]: unknown;
  }
  /** With a callback: the running instance, which emits 'response' (client, status, bytes, milliseconds). */
  interface Instance {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): Instance;
  }
  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
