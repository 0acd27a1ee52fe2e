/**
 * One POST of a webhook delivery, to an address checked after resolution: the
 * request's own `lookup` resolves the name, refuses it unless every address it
 * resolves to is public (domain/webhookAddress.ts), and hands the socket the address
 * it checked, so a second resolution (a DNS rebind) never decides where it connects.
 * At most DELIVERY_TIMEOUT_MS in all; of the answer only the status is read, never its
 * body (the delivery log keeps the status, contract part four).
 */
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, type WebhookTarget } from '../domain/webhookAddress';
import { DELIVERY_TIMEOUT_MS } from '../domain/webhookEvents';

/** Resolves a name to every address it has (node:dns `lookup` with `all`). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    systemLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export interface PostOutcome {
  statusCode: number | null;
  /** Why no answer came (a refused address, a network error, the timeout); null when one did. */
  error: string | null;
}

/** Marks a refusal of ours, told apart from a network error in `error`. */
export class AddressRefused extends Error {}

/** A `lookup` for node's http agents that connects only to a public address it resolved itself. */
export function checkedLookup(resolver: Resolver, local: boolean): LookupFunction {
  return (host, options, callback) => {
    resolver(host).then(
      (addresses) => {
        const refused = local ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
        if (addresses.length === 0) return callback(new Error(`${host} has no address`), '', 0);
        if (refused) {
          return callback(new AddressRefused(`${host} resolves to a private or reserved address`), '', 0);
        }
        const [first] = addresses;
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [first]);
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

export function postWebhook(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: string,
  resolver: Resolver = systemResolver,
): Promise<PostOutcome> {
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    lookup: checkedLookup(resolver, target.local),
    // Each delivery opens its own connection: a kept-alive socket would skip the check.
    agent: false,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const failed = (error: Error) => {
      const reason =
        error instanceof AddressRefused
          ? error.message
          : error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
            : `network error: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
      settle({ statusCode: null, error: reason });
    };
    const request = send(target.url, options, (response) => {
      settle({ statusCode: response.statusCode ?? null, error: null });
      response.destroy();
    });
    request.on('error', failed);
    request.end(body);
  });
}
