/**
 * A local stand-in for the two Google endpoints firebase-admin's ID token checks use
 * when deployed (not on the emulator, where firebase-admin skips the signature and
 * always makes the revocation lookup): the public keys (`www.googleapis.com`) and the
 * Auth API's `accounts:lookup` (`identitytoolkit.googleapis.com`). An app given
 * `agent` sends both there in plain HTTP; either endpoint can be made to answer with
 * an error, to refuse the connection, or to take it and stay silent. Used by test/unit/identity.test.ts and by the bench.
 *
 * Plain erasable TypeScript importing only Node built-ins, so Node runs it as is
 * (the bench imports it from an .mjs script).
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { Agent } from 'node:https';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

/** `silent`: takes the connection and never answers (a network that drops the replies). */
export type Endpoint = 'answers' | 'fails' | 'unreachable' | 'silent';

export interface StandInAccount {
  localId: string;
  disabled?: boolean;
  /** Seconds: tokens issued before it are revoked. */
  validSince?: string;
}

export interface TokenOptions {
  admin?: boolean;
  ageSeconds?: number;
  key?: KeyObject;
  expired?: boolean;
}

const KEY_ID = 'key-1';

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function startGoogleStandIn(projectId: string) {
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const state = {
    keys: 'answers' as Endpoint,
    lookup: 'answers' as Endpoint,
    accounts: new Map<string, StandInAccount>(),
    lookups: 0,
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.host === 'www.googleapis.com') {
      if (state.keys === 'fails') return json(500, { error: 'backend_error' });
      return json(200, { [KEY_ID]: signingKey.publicKey.export({ type: 'spki', format: 'pem' }) });
    }
    if (
      req.headers.host === 'identitytoolkit.googleapis.com' &&
      req.url === `/v1/projects/${projectId}/accounts:lookup`
    ) {
      state.lookups++;
      if (state.lookup === 'fails') return json(500, { error: { code: 500, message: 'INTERNAL_ERROR' } });
      const [uid] = (JSON.parse(body) as { localId: string[] }).localId;
      const account = state.accounts.get(uid);
      return json(200, account ? { users: [account] } : {});
    }
    json(404, { error: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const held = new Set<Socket>();
  const silent = createTcpServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentPort = (silent.address() as AddressInfo).port;

  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  /** Sends every HTTPS request of firebase-admin to the stand-in, or to a port nobody listens on. */
  class ToStandIn extends Agent {
    createConnection(options: { host?: string | null }) {
      const endpoint = options.host === 'www.googleapis.com' ? state.keys : state.lookup;
      const ports: Record<Endpoint, number> = {
        answers: port,
        fails: port,
        unreachable: closedPort,
        silent: silentPort,
      };
      return connect(ports[endpoint], '127.0.0.1');
    }
  }

  /** An ID token as Google signs it, issued `ageSeconds` ago. */
  function idToken(
    uid: string,
    { admin = false, ageSeconds = 60, key = signingKey.privateKey, expired = false }: TokenOptions = {},
  ) {
    const issuedAt = nowSeconds() - ageSeconds;
    const header = base64url({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' });
    const payload = base64url({
      iss: `https://securetoken.google.com/${projectId}`,
      aud: projectId,
      sub: uid,
      user_id: uid,
      auth_time: issuedAt,
      iat: issuedAt,
      exp: expired ? nowSeconds() - 1 : issuedAt + 3600,
      firebase: { sign_in_provider: 'custom', identities: {} },
      ...(admin ? { admin: true } : {}),
    });
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key).toString('base64url');
    return `${header}.${payload}.${signature}`;
  }

  return {
    state,
    /** For firebase-admin's `initializeApp({ httpAgent })`. */
    agent: new ToStandIn(),
    /** For `initializeApp({ credential })`: the stand-in takes any access token. */
    credential: { getAccessToken: async () => ({ access_token: 'stand-in', expires_in: 3600 }) },
    idToken,
    /** A token header naming the stand-in's key id, for crafting malformed tokens. */
    tokenHeader: base64url({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' }),
    reset() {
      state.keys = 'answers';
      state.lookup = 'answers';
      state.accounts.clear();
      state.lookups = 0;
    },
    close: async () => {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { nowSeconds };
