// The cold-start floor of `npm run bench`: the smallest HTTPS function that does the
// work of the timed request and nothing else, on the same libraries as the service
// (firebase-functions v2 + firebase-admin from functions/node_modules).
//   GET /kiosk/{id}: one Firestore document read (kiosks/{id}).
//   GET /user/{id}:  the ID token verified, then one document read (users/{id}).
// The bench copies it into a temp directory and serves it with functions-framework.
const { onRequest } = require('firebase-functions/v2/https');
const { initializeApp } = require('firebase-admin/app');
const { getFirestore } = require('firebase-admin/firestore');

const app = initializeApp();

exports.api = onRequest(async (req, res) => {
  const [collection, id] = req.path.split('/').filter(Boolean);
  if (collection === 'user') {
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const { getAuth } = require('firebase-admin/auth');
    const decoded = await getAuth(app).verifyIdToken(token).catch(() => undefined);
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
