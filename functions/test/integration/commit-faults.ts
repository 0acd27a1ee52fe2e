import type { Firestore } from 'firebase-admin/firestore';

/**
 * Fault injection around the real Firestore: commits matching `affects` reach the
 * emulator and are applied, but their answer is replaced by UNAVAILABLE, as when a
 * connection drops after the server wrote. The SDK then sends the commit again by
 * itself, exactly as it does in production.
 *
 * This reaches into the SDK's internals (its client pool and gRPC stub): fine for a
 * test that must fail the way the network does, never for the service.
 */
export function loseCommitAnswers(firestore: Firestore, affects: (request: CommitRequest) => boolean, times = 1) {
  let remaining = times;
  const originals = new Map<GrpcStub, GrpcStub['commit']>();
  const wrapStub = (stub: GrpcStub) => {
    if (originals.has(stub)) return;
    const commit = stub.commit;
    originals.set(stub, commit);
    stub.commit = function (request, metadata, options, callback) {
      if (remaining <= 0 || !affects(request)) return commit.call(stub, request, metadata, options, callback);
      remaining -= 1;
      return commit.call(stub, request, metadata, options, (error: unknown, response: unknown) => {
        if (error) return callback(error, response);
        const lost = Object.assign(new Error('14 UNAVAILABLE: connection lost after the commit was applied (injected)'), {
          code: 14,
          details: 'connection lost after the commit was applied (injected)',
        });
        return callback(lost);
      });
    };
  };
  const wrapClient = (client: GapicClient) => {
    void client.initialize().then(wrapStub);
  };

  const pool = (firestore as unknown as { _clientPool: ClientPool })._clientPool;
  for (const client of pool.activeClients.keys()) wrapClient(client);
  const factory = pool.clientFactory;
  pool.clientFactory = (...args: unknown[]) => {
    const client = factory(...args);
    wrapClient(client);
    return client;
  };
  return {
    /** How many answers are still to be lost; 0 once every planned fault happened. */
    remaining: () => remaining,
    restore: () => {
      remaining = 0;
      pool.clientFactory = factory;
      for (const [stub, commit] of originals) stub.commit = commit;
    },
  };
}

export interface CommitRequest {
  writes?: { update?: { name?: string }; delete?: string; currentDocument?: unknown }[];
  transaction?: unknown;
}

/** True when the commit writes a document of `collection` (a top-level collection id). */
export const writesTo =
  (collection: string) =>
  (request: CommitRequest): boolean =>
    (request.writes ?? []).some((write) => {
      const name = write.update?.name ?? write.delete ?? '';
      return name.includes(`/documents/${collection}/`);
    });

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
