// The floor function of `npm run bench`: the smallest HTTPS function that does the
// work of the timed request and nothing else, on the same libraries as the service
// (firebase-functions v2 + firebase-admin from functions/node_modules). The bench
// copies it into a temp directory and serves it with functions-framework.
//   GET /kiosk/{id}: one Firestore document read (kiosks/{id})       (cold start)
//   GET /user/{id}:  the ID token verified, then one read (users/{id}) (cold start)
//   POST /floor?name=<endpoint>&w=&g=: that endpoint's floor operation from
//     scripts/bench/endpoints.mjs (warm latency: the "same-host floor"); only when
//     BENCH_FLOOR_CONTEXT names the bench's context file.
//   GET /body?bytes=<n>: a JSON body of n bytes, built once and then only sent (the
//     HTTP floor of an endpoint whose answer is large, warm latency)
const { readFileSync } = require('node:fs');
const { onRequest } = require('firebase-functions/v2/https');
const { initializeApp } = require('firebase-admin/app');
const { getFirestore } = require('firebase-admin/firestore');

const app = initializeApp();

const floors = process.env.BENCH_FLOOR_CONTEXT
  ? (async () => {
      const { endpointSpecs, floorOperation, mailFloorFor } = await import(process.env.BENCH_ENDPOINTS_MODULE);
      const { ctx, mailPort } = JSON.parse(readFileSync(process.env.BENCH_FLOOR_CONTEXT, 'utf8'));
      const specs = new Map(
        endpointSpecs({ ...ctx, mailFloor: mailFloorFor(mailPort) }).map((spec) => [spec.name, spec]),
      );
      return { specs, floorOperation };
    })()
  : undefined;

async function sameHostFloor(req, res) {
  try {
    const { specs, floorOperation } = await floors;
    await floorOperation(specs.get(String(req.query.name)), Number(req.query.w), Number(req.query.g));
    res.json({ ok: true });
  } catch (error) {
    res.status(500).json({ error: String(error?.message ?? error) });
  }
}

/** Bodies by size: `{"padding":"xx…"}` of exactly that many bytes. */
const bodies = new Map();
function sendBody(req, res) {
  const bytes = Math.max(14, Number(req.query.bytes) || 0);
  if (!bodies.has(bytes)) bodies.set(bytes, JSON.stringify({ padding: 'x'.repeat(bytes - 14) }));
  res.type('application/json').send(bodies.get(bytes));
}

exports.api = onRequest(async (req, res) => {
  if (floors && req.path === '/floor') return sameHostFloor(req, res);
  if (req.path === '/body') return sendBody(req, res);
  const [collection, id] = req.path.split('/').filter(Boolean);
  if (collection === 'user') {
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const { getAuth } = require('firebase-admin/auth');
    const decoded = await getAuth(app)
      .verifyIdToken(token)
      .catch(() => undefined);
    if (!decoded || decoded.uid !== id) {
      res.status(401).json({ error: 'unauthorized' });
      return;
    }
  }
  const snapshot = await getFirestore(app)
    .collection(collection === 'user' ? 'users' : 'kiosks')
    .doc(id ?? 'none')
    .get();
  if (!snapshot.exists) {
    res.status(404).json({ error: 'not found' });
    return;
  }
  res.json({ id: snapshot.id, ...snapshot.data() });
});
