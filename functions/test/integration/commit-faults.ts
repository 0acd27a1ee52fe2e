import type { Firestore } from 'firebase-admin/firestore';

/**
 * Real Firestore faults for this process's Admin SDK (the one the service code uses
 * when a test calls it directly), injected at the gRPC stub's `commit`:
 * - `'lose-answer'`: the commit reaches the emulator and is applied, but its answer
 *   is replaced by UNAVAILABLE, as when a connection drops after the server wrote;
 *   the SDK then sends the commit again by itself, exactly as in production;
 * - `{ appliedThen: code }`: the same, but the answer is replaced by `code`; for
 *   codes the SDK does not resend a plain commit on (DEADLINE_EXCEEDED, INTERNAL,
 *   CANCELLED) the service itself meets a commit whose outcome is unknown;
 * - a gRPC status code: the commit fails with it before reaching the emulator, as
 *   one that timed out does;
 * - `{ before: write }`: `write` runs (its own commits pass untouched) and then the
 *   commit is sent: another writer that got in between the read and the commit.
 * The next `times` commits that `matches` get the fault; the others pass untouched.
 *
 * This reaches into the SDK's internals (its client pool and gRPC stub): fine for a
 * test that must fail the way the network does, never for the service.
 */
export function injectCommitFaults(
  firestore: Firestore,
  matches: (request: CommitRequest) => boolean,
  times: number,
  fault: 'lose-answer' | { appliedThen: number } | { before: () => Promise<unknown> } | number,
) {
  let injected = 0;
  const originals = new Map<GrpcStub, GrpcStub['commit']>();
  const wrapStub = (stub: GrpcStub) => {
    if (originals.has(stub)) return;
    const commit = stub.commit;
    originals.set(stub, commit);
    stub.commit = function (request, metadata, options, callback) {
      if (injected >= times || !matches(request)) return commit.call(stub, request, metadata, options, callback);
      injected += 1;
      if (typeof fault === 'number') {
        setImmediate(() => callback(grpcError(fault, 'injected by the test')));
        return { cancel: () => undefined };
      }
      if (typeof fault === 'object' && 'before' in fault) {
        void fault.before().then(
          () => commit.call(stub, request, metadata, options, callback),
          (error: unknown) => callback(error),
        );
        return { cancel: () => undefined };
      }
      const answerCode = fault === 'lose-answer' ? UNAVAILABLE : fault.appliedThen;
      return commit.call(stub, request, metadata, options, (error: unknown, response: unknown) =>
        error ? callback(error, response) : callback(grpcError(answerCode, 'answer lost after the commit was applied')),
      );
    };
  };
  const wrapClient = (client: GapicClient) => void client.initialize().then(wrapStub);

  const pool = (firestore as unknown as { _clientPool: ClientPool })._clientPool;
  for (const client of pool.activeClients.keys()) wrapClient(client);
  const factory = pool.clientFactory;
  pool.clientFactory = (...args: unknown[]) => {
    const client = factory(...args);
    wrapClient(client);
    return client;
  };
  return {
    /** How many commits got the fault so far. */
    injected: () => injected,
    restore: () => {
      pool.clientFactory = factory;
      for (const [stub, commit] of originals) stub.commit = commit;
    },
  };
}

/**
 * Runs `act` while the next commit that `matches` loses its answer (applied, then
 * reported as a lost connection), and removes the fault afterwards, also when `act`
 * throws. Returns what `act` returned and how many commits lost their answer, for the
 * test to check that the commit it meant was the one hit.
 */
export async function withLostCommitAnswer<T>(
  firestore: Firestore,
  matches: (request: CommitRequest) => boolean,
  act: () => Promise<T>,
): Promise<{ result: T; injected: number }> {
  const fault = injectCommitFaults(firestore, matches, 1, 'lose-answer');
  try {
    const result = await act();
    return { result, injected: fault.injected() };
  } finally {
    fault.restore();
  }
}

/** gRPC status codes a test injects. */
export const GRPC = { CANCELLED: 1, DEADLINE_EXCEEDED: 4, ABORTED: 10, INTERNAL: 13 } as const;
const UNAVAILABLE = 14;

const grpcError = (code: number, details: string) =>
  Object.assign(new Error(`${code} ${details} (injected)`), { code, details });

export interface CommitRequest {
  /** Set on the commit of a Firestore transaction, absent on a plain write. */
  transaction?: unknown;
  writes?: { update?: { name?: string }; delete?: string }[];
}

const writtenNames = (request: CommitRequest): string[] =>
  (request.writes ?? []).map((write) => write.update?.name ?? write.delete ?? '');

/** True when the commit writes a document of `collection` (a top-level collection id). */
export const writesTo =
  (collection: string) =>
  (request: CommitRequest): boolean =>
    writtenNames(request).some((name) => name.includes(`/documents/${collection}/`));

/** True when the commit writes the document at `path` (e.g. `users/u1`). */
export const writesDocument =
  (path: string) =>
  (request: CommitRequest): boolean =>
    writtenNames(request).some((name) => name.endsWith(`/documents/${path}`));

type Callback = (error: unknown, response?: unknown) => void;
interface GrpcStub {
  commit: (request: CommitRequest, metadata: unknown, options: unknown, callback: Callback) => unknown;
}
interface GapicClient {
  initialize(): Promise<GrpcStub>;
}
interface ClientPool {
  activeClients: Map<GapicClient, unknown>;
  clientFactory: (...args: unknown[]) => GapicClient;
}
