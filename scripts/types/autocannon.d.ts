// The part of autocannon's API the bench and the load test use (the package ships no types, and @types/autocannon would
// be one more install for two call sites).
declare module 'autocannon' {
  // `context` is whatever the caller keeps per connection, hence any; a request is method, path, headers and body.
  export interface Request {
    setupRequest?: (request: Record<string, unknown>, context: any) => Record<string, unknown>;
    onResponse?: (status: number, body: string, context: any, headers: Record<string, string>) => void;
  }
  interface Options {
    url: string;
    requests?: Request[];
    [option: string]: unknown;
  }
  export interface Result {
    requests: { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  /** With a callback: the running instance, which emits 'response' (client, status, bytes, milliseconds). */
  interface Instance {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): Instance;
  }
  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
