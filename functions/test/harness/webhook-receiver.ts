/**
 * A webhook receiver on 127.0.0.1 for the tests: it records every POST (raw body and
 * headers) and answers each with the next status of its script (the last one once the
 * script runs out). Shared by the integration and browser tests.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  body: string;
  headers: IncomingHttpHeaders;
  /** When the request had arrived whole (ms since the epoch), just before it is answered. */
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedCall[];
  /** The statuses to answer from now on, in order; the last is repeated. */
  answer(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(...statuses: number[]): Promise<WebhookReceiver> {
  let script = statuses.length > 0 ? [...statuses] : [204];
  const received: ReceivedCall[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers, receivedAt: Date.now() });
      const status = script.length > 1 ? script.shift()! : script[0];
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (...next) => {
      script = [...next];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
