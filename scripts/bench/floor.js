// The HTTP and data floors of `npm run bench` (docs/performance.md, How the bench measures): an empty HTTPS function on
// the service's framework (firebase-functions v2, served by functions-framework like the api).
//   GET /               an empty answer (cold start and every endpoint's HTTP floor)
//   GET /body?bytes=<n> a JSON body of n bytes, built once and then only sent (the HTTP floor of a large answer)
//   GET /doc?path=<p>[&path=<q>]  the documents at p (and q) in one read, as JSON (a read of documents by path)
//   GET /query?collection=<c>[&active][&orderBy=<f>]  c's documents (active only; by f, then id): a small query
// A Bearer token is verified first, as the service verifies a user's (the Auth emulator checks revocation either way).
const { onRequest } = require('firebase-functions/v2/https');

const bodies = new Map();
let admin;
const data = () => {
  if (admin) return admin;
  const app = require('firebase-admin/app').initializeApp();
  admin = {
    db: require('firebase-admin/firestore').getFirestore(app),
    auth: require('firebase-admin/auth').getAuth(app),
  };
  return admin;
};
const backend = {
  '/doc': async ({ db }, { path }) => ({
    docs: (await db.getAll(...[path].flat().map((one) => db.doc(one)))).map((doc) => doc.data()),
  }),
  '/query': async ({ db }, { collection, active, orderBy }) => {
    let query = db.collection(collection);
    if (active !== undefined) query = query.where('active', '==', true);
    if (orderBy) query = query.orderBy(orderBy).orderBy('__name__');
    return { docs: (await query.get()).docs.map((doc) => doc.data()) };
  },
};

exports.api = onRequest(async (req, res) => {
  if (backend[req.path]) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token) await data().auth.verifyIdToken(token);
    return void res.json(await backend[req.path](data(), req.query));
  }
  const bytes = req.path === '/body' ? Math.max(14, Number(req.query.bytes) || 0) : 0;
  if (!bytes) return void res.json({ ok: true });
  if (!bodies.has(bytes)) bodies.set(bytes, JSON.stringify({ padding: 'x'.repeat(bytes - 14) }));
  res.type('application/json').send(bodies.get(bytes));
});
