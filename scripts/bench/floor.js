// The HTTP floor of `npm run bench`: an empty HTTPS function on the same framework and libraries as the service
// (firebase-functions v2, served by functions-framework like the api). The floor of a request is this function's time
// plus the time the endpoint's own Firestore, Auth and SMTP calls took (their Server-Timing), so no endpoint's work is
// copied here.
//   GET /               an empty answer (cold start and every endpoint's HTTP floor)
//   GET /body?bytes=<n> a JSON body of n bytes, built once and then only sent (the HTTP floor of a large answer)
const { onRequest } = require('firebase-functions/v2/https');

const bodies = new Map();

exports.api = onRequest((req, res) => {
  const bytes = req.path === '/body' ? Math.max(14, Number(req.query.bytes) || 0) : 0;
  if (!bytes) return void res.json({ ok: true });
  if (!bodies.has(bytes)) bodies.set(bytes, JSON.stringify({ padding: 'x'.repeat(bytes - 14) }));
  res.type('application/json').send(bodies.get(bytes));
});
