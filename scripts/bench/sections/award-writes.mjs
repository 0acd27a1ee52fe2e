// @ts-check
// Section 4d: what the ledger adds to an award, in Firestore writes. In a project of
// its own holding the throughput section's data for one user (the rewards config, 50
// kiosks with keys, the user), single POST /kiosk/transaction requests go one after
// another to an instance of its own; around each one every document of the project
// is listed with its update time, so the documents the request created or changed,
// by collection, are its writes, counted rather than assumed. The ledger's share is
// what it wrote in `ledger`; an award before the ledger wrote the rest (the commit
// then held the transaction and the user), so writes before = writes now − the
// ledger's. The Firestore trigger does not run for that project: its effects are the
// same with or without the ledger, whose entry is part of the award's own commit.
import { projectFirestore } from '../growth.mjs';
import { API_SOURCE, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { keepAliveAgent, request } from '../measure.mjs';
import { seedDataSize } from '../seed.mjs';
import { warmApiEnv } from '../setup.mjs';

/** @param {import('../setup.mjs').Bench} bench */
export async function measureAwardWrites(bench) {
  const { awards } = bench.plan.awardWrites;
  const { runId } = bench.ctx;
  const { projectId, kiosks } = await seedDataSize(`${process.env.GCLOUD_PROJECT}-award-writes`, 1, runId);
  const firestore = projectFirestore(projectId);
  const instance = await startFunction({
    source: API_SOURCE,
    env: warmApiEnv(bench, { GCLOUD_PROJECT: projectId }),
    name: 'api-award-writes',
  });
  const agent = keepAliveAgent(1);
  try {
    await waitForSuccess(instance, '/');
    /** @type {Record<string, number>[]} */
    const perAward = [];
    for (let i = 0; i < awards; i++) {
      const before = await everyDocument(firestore);
      const response = await request({
        url: `${instance.url}/kiosk/transaction`,
        method: 'POST',
        headers: { 'x-api-key': kiosks[0].apiKey, 'idempotency-key': `${runId}-writes-${i}` },
        body: { kioskId: kiosks[0].id, userId: 'tp-user-0', plasticCount: 2, metalCount: 1 },
        agent,
      });
      if (response.status !== 200 && response.status !== 201)
        throw new Error(`POST /kiosk/transaction: ${response.status} ${response.body}`);
      perAward.push(written(before, await everyDocument(firestore)));
    }
    const collections = [...new Set(perAward.flatMap((writes) => Object.keys(writes)))].sort();
    const totals = perAward.map((writes) => Object.values(writes).reduce((sum, n) => sum + n, 0));
    const ledger = perAward.map((writes) => writes.ledger ?? 0);
    const result = {
      projectId,
      awards,
      collections: collections.map((name) => ({ name, writes: perAward.map((writes) => writes[name] ?? 0) })),
      totals,
      // The award's commit, now and before the ledger: the writes every award made (a
      // write that only some awards make, like the kiosk's lastSeenAt, is not the commit's).
      commit: Math.min(...totals),
      commitBefore: Math.min(...totals.map((total, i) => total - ledger[i])),
    };
    console.log(
      `  writes per award: ${totals.join(', ')} (${result.collections.map(({ name, writes }) => `${name} ${writes.join('/')}`).join(', ')}); the award's commit ${result.commitBefore} before the ledger, ${result.commit} with it`,
    );
    return { awardWrites: result };
  } finally {
    agent.destroy();
    await stopFunction(instance);
  }
}

/**
 * Every document of the project, subcollections included: its path → its update time.
 * @param {import('firebase-admin/firestore').Firestore} firestore
 */
async function everyDocument(firestore) {
  /** @type {Map<string, string>} */
  const times = new Map();
  /** @param {import('firebase-admin/firestore').CollectionReference[]} collections */
  const visit = async (collections) => {
    const reads = await Promise.all(collections.map((collection) => collection.get()));
    const docs = reads.flatMap((read) => read.docs);
    for (const doc of docs) times.set(doc.ref.path, `${doc.updateTime.seconds}.${doc.updateTime.nanoseconds}`);
    const nested = (await Promise.all(docs.map((doc) => doc.ref.listCollections()))).flat();
    if (nested.length) await visit(nested);
  };
  await visit(await firestore.listCollections());
  return times;
}

/**
 * The documents created, changed or deleted between two listings, counted by top-level collection.
 * @param {Map<string, string>} before
 * @param {Map<string, string>} after
 */
function written(before, after) {
  /** @type {Record<string, number>} */
  const writes = {};
  const paths = new Set([...before.keys(), ...after.keys()]);
  for (const path of paths) {
    if (before.get(path) === after.get(path)) continue;
    const collection = path.split('/')[0];
    writes[collection] = (writes[collection] ?? 0) + 1;
  }
  return writes;
}
