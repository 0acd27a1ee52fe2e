// @ts-check
// The Firestore floors of section 2, in a process of their own: the endpoints' reads
// and writes done directly with the Admin SDK, each operation in the execution
// context functions-framework gives every request (an AsyncLocalStorage store and a
// domain of its own). Both make each asynchronous step dearer, so a floor measured
// without them would charge the host's cost to the endpoint. Driven over IPC by
// stand-ins.mjs (startFloorRunner); the timing is done here.
import { AsyncLocalStorage } from 'node:async_hooks';
import domain from 'node:domain';
import { endpointSpecs, floorOperation, mailFloorFor } from './endpoints.mjs';
import { closedLoop } from './measure.mjs';

const executionContext = new AsyncLocalStorage();
let executions = 0;

/**
 * As functions-framework runs a request: asyncLocalStorage.run(...) → domain.run → nextTick.
 * @param {() => Promise<void>} operation
 */
const inRequestContext = (operation) =>
  new Promise((resolve, reject) => {
    executionContext.run({ executionId: `floor-${executions++}`, spanId: undefined }, () => {
      const d = domain.create();
      d.on('error', reject);
      d.run(() => process.nextTick(() => operation().then(resolve, reject)));
    });
  });

/**
 * @typedef {{ type: 'init', ctx: import('./stand-ins.mjs').FloorContext, mailPort: number }
 *   | { type: 'run', id: number, name: string, concurrency: number, total: number, base: number }} Message
 */

if (!process.send)
  throw new Error('floor-runner.mjs is started by stand-ins.mjs (startFloorRunner), over an IPC channel');
const send = process.send.bind(process);

/** @type {Map<string, import('./endpoints.mjs').EndpointSpec>} */
let specs = new Map();
process.on('message', async (/** @type {Message} */ message) => {
  if (message.type === 'init') {
    specs = new Map(
      endpointSpecs({ ...message.ctx, mailFloor: mailFloorFor(message.mailPort) }).map((spec) => [spec.name, spec]),
    );
    send({ type: 'ready' });
  } else if (message.type === 'run') {
    const spec = specs.get(message.name);
    if (!spec) throw new Error(`floor runner: no endpoint ${message.name}`);
    const result = await closedLoop({
      concurrency: message.concurrency,
      total: message.total,
      operation: async (w, i) => {
        await inRequestContext(() => floorOperation(spec, w, message.base + i));
        return { ok: true };
      },
    });
    send({
      type: 'result',
      id: message.id,
      latencies: result.latencies,
      failed: result.failed,
      failures: result.failures,
    });
  }
});
