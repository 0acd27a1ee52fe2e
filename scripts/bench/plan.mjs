// @ts-check
// How often each section repeats what it times. The full plan keeps the whole run,
// --diagnose included, near 10 minutes on 2 cores; --quick shrinks every section to
// seconds, for trying the bench itself (its figures are not for comparison).

/** @param {boolean} quick */
export function benchPlan(quick) {
  /** @type {(full: number, small: number) => number} */
  const scale = (full, small) => (quick ? small : full);
  return {
    moduleLoadRuns: scale(5, 2),
    coldRuns: scale(15, 2),
    coldRestRuns: scale(5, 1),
    warm: {
      // c=1: request by request, endpoint and floor alternating (GET / every other time).
      1: { warmup: 10, endpoint: scale(100, 20) },
      // c=16: rounds of small batches, interleaved.
      16: { warmup: 48, rounds: scale(16, 2), http: 32, endpoint: 48, floor: 48 },
    },
    restEndpoints: ['GET /kiosk/{id}', 'GET /user/{id}', 'POST /kiosk/transaction'],
    // gRPC and REST instances alternate round by round.
    restWarm: {
      1: { warmup: 10, rounds: scale(4, 2), requests: scale(25, 10) },
      16: { warmup: 48, rounds: scale(4, 2), requests: scale(64, 32) },
    },
    // One instance each of api and the same-host floor, profiled under the same c=16 load.
    cpuBreakdown: { concurrency: 16, warmup: scale(200, 48), requests: scale(800, 96) },
    lag: { sequential: scale(15, 3), bursts: scale(3, 1), burstSize: 16 },
    // A kiosk's backlog: one batch against single submissions of the same deposits, modes rotating.
    batch: { items: scale(100, 20), rounds: scale(2, 1) },
    // GET /kiosks?near= at one neighbourhood of 20 kiosks, with 100 and with 10,000 kiosks elsewhere, sizes rotating.
    nearby: {
      fleets: [100, 10_000],
      neighbourhood: 20,
      warmup: scale(20, 5),
      rounds: scale(5, 2),
      requests: scale(40, 10),
    },
    // GET /user/{id}/history: a page of 10 with 10 and with 10,000 entries (first and last page), in turn like nearby.
    history: {
      entries: [10, 10_000],
      limit: 10,
      warmup: scale(20, 5),
      rounds: scale(5, 2),
      requests: scale(40, 10),
    },
    // The writes of single awards, counted from what changed in a project of their own.
    awardWrites: { awards: scale(5, 3) },
    tokenCheck: { runs: scale(500, 50) },
    throughput: {
      users: [10, 1_000, 10_000],
      connections: [16, 64],
      seconds: scale(10, 3),
      repeats: scale(3, 1),
      warmupSeconds: scale(10, 2),
    },
  };
}

/** @typedef {ReturnType<typeof benchPlan>} Plan */
