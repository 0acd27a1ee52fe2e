/** seed, token: demo data and ID tokens for trying the API on the local stack. */
import type { DocumentData, DocumentReference } from 'firebase-admin/firestore';
import { isAlreadyExists } from '../../adapters/firestore';
import { upsertKiosk } from '../../data/kiosks';
import { promotionFromBody, upsertPromotion } from '../../data/promotions';
import { upsertReward, type RewardRecord } from '../../data/rewards';
import { issueKey, kioskKeysCollection, revokeKey, type KioskKeyRecord } from '../../data/kioskKeys';
import { isErasedProfile, newProfile, profileName, usersCollection } from '../../data/users';
import { newPushTokenHolder, pushTokenHolderRef } from '../../data/pushTokens';
import type { KioskRecord } from '../../domain/kiosk';
import type { RewardsConfig } from '../../domain/rewards';
import { openBalance } from '../../services/ledgerBooks';
import { auth, findAccountByEmail, setAdminClaim, type AuthUser } from '../accounts';
import { print, printJson, type Command } from '../command';
import {
  DEMO_ACCOUNTS,
  DEMO_KEY_LABEL,
  DEMO_KIOSKS,
  DEMO_PASSWORD,
  DEMO_PROMOTIONS,
  DEMO_REWARDS,
  type DemoAccount,
} from '../demoData';
import { validatedKiosk } from './kiosks';
import { BACKFILL_ACTOR } from './ledger';
import { storedRewards } from './rewards';
import type { KioskStatus } from '../../model/vocabulary';
import { CliError } from '../errors';

async function createIfMissing(ref: DocumentReference, data: DocumentData): Promise<void> {
  try {
    await ref.create(data);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

interface SeededAccount {
  email: string;
  uid: string;
  admin: boolean;
  created: boolean;
  /** The demo user was erased (contract §15): an erased id is never brought back, so nothing was seeded for it. */
  erased?: true;
}

/**
 * The profile is written before the account, so the account's first request finds
 * it (and provisions none). An account that already exists is reused and keeps its profile
 * (points earned while trying things out stay). An erased demo user stays erased: no
 * profile, account or claim for the id.
 */
async function seedAccount(demo: DemoAccount, rewards: RewardsConfig): Promise<SeededAccount> {
  const existing = await findAccountByEmail(demo.email);
  const uid = existing?.uid ?? demo.uid;
  const profile = newProfile(
    {
      name: profileName({ displayName: demo.displayName, email: demo.email }),
      currentPoints: demo.points,
      totalPoints: demo.points,
      recycledCount: demo.recycledCount,
      pushToken: demo.pushToken,
      authAccount: true,
    },
    rewards,
  );
  const profileRef = usersCollection().doc(uid);
  if (isErasedProfile(await profileRef.get()))
    return { email: demo.email, uid, admin: demo.admin, created: false, erased: true };
  let account: AuthUser;
  if (existing) {
    // Left as it is: changing the password would sign the account out everywhere.
    await createIfMissing(profileRef, profile);
    account = existing;
  } else {
    await profileRef.set(profile);
    account = await auth().createUser({
      uid,
      email: demo.email,
      emailVerified: true,
      password: DEMO_PASSWORD,
      displayName: demo.displayName,
    });
  }
  if (demo.pushToken) await createIfMissing(pushTokenHolderRef(demo.pushToken), newPushTokenHolder(uid));
  if (demo.admin) await setAdminClaim(account, true);
  // The demo points predate any deposit: opened in the ledger as any older balance is.
  await openBalance(uid, BACKFILL_ACTOR);
  return { email: demo.email, uid, admin: demo.admin, created: !existing };
}

/** The raw key cannot be recovered from its hash: every run issues a new demo key and revokes the earlier ones. */
async function freshDemoKey(kioskId: string): Promise<{ keyId: string; apiKey: string; revoked: number }> {
  const issued = await issueKey(kioskId, DEMO_KEY_LABEL);
  const keys = await kioskKeysCollection().where('kioskId', '==', kioskId).get();
  let revoked = 0;
  for (const doc of keys.docs) {
    const record = doc.data() as KioskKeyRecord;
    if (doc.id === issued.keyId || record.label !== DEMO_KEY_LABEL || record.revokedAt !== null) continue;
    if (await revokeKey(kioskId, doc.id)) revoked++;
  }
  return { ...issued, revoked };
}

/** Shell lines that try the API with the demo data; `npm start` prints them in its banner through this report. */
function readyToPaste(projectId: string, kioskId: string, apiKey: string, user: SeededAccount, admin: SeededAccount) {
  const token = (account: SeededAccount) => `$(npm run --silent admin -- token --email ${account.email})`;
  const json = "-H 'Content-Type: application/json'";
  return [
    `  API=http://127.0.0.1:5001/${projectId}/us-central1/api`,
    `  KIOSK_KEY=${apiKey}`,
    `  TOKEN=${token(user)}`,
    `  ADMIN_TOKEN=${token(admin)}`,
    '',
    '  curl -s "$API/kiosks"',
    `  curl -s -X POST "$API/kiosk/transaction" -H "X-API-Key: $KIOSK_KEY" ${json} \\`,
    `    -d '{"kioskId":"${kioskId}","userId":"${user.uid}","plasticCount":3,"metalCount":1}'`,
    `  curl -s "$API/user/${user.uid}" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s -X POST "$API/send-otp-email" ${json} -d '{"email":"${user.email}","otp":"123456"}'`,
    `  curl -s -X POST "$API/notify/topic" -H "Authorization: Bearer $ADMIN_TOKEN" ${json} \\`,
    `    -d '{"topic":"all_users","title":"Double points","body":"Double points this weekend"}'`,
  ].join('\n');
}

const seed: Command = {
  name: 'seed',
  description:
    'Demo kiosks, a fresh demo kiosk API key, demo accounts, a rewards catalog and the weekend promotion for the local stack (emulator only; safe to run ' +
    'again). Prints what it made and shell lines that try the API with it.',
  flags: { json: { description: 'print what it made as JSON instead' } },
  uses: { firestore: true, auth: true },
  emulatorOnly: true,
  run: async (flags, target) => {
    const kiosks: KioskRecord[] = [];
    for (const input of DEMO_KIOSKS) kiosks.push((await upsertKiosk(validatedKiosk(input))).kiosk);
    const demoKiosk = kiosks[0].id;
    const key = await freshDemoKey(demoKiosk);
    const { config } = await storedRewards();
    const accounts: SeededAccount[] = [];
    for (const demo of DEMO_ACCOUNTS) accounts.push(await seedAccount(demo, config));
    const rewards: RewardRecord[] = [];
    for (const definition of DEMO_REWARDS) rewards.push((await upsertReward(definition)).reward);
    const promotions = [];
    for (const body of DEMO_PROMOTIONS) promotions.push((await upsertPromotion(promotionFromBody(body))).promotion);

    if (flags.has('json')) {
      await printJson({
        projectId: target.projectId,
        kiosks: kiosks.map(({ id, status }) => ({ id, status })),
        apiKey: { kioskId: demoKiosk, keyId: key.keyId, apiKey: key.apiKey, revokedEarlierKeys: key.revoked },
        accounts,
        rewards: rewards.map(({ id, cost, kind, stock }) => ({ id, cost, kind, stock })),
        promotions: promotions.map(({ id, kioskIds, hours }) => ({ id, kioskIds, hours })),
        password: DEMO_PASSWORD,
      });
      return;
    }
    const status = (s: KioskStatus) => (s === 'available' ? '' : ` (${s})`);
    const admin = accounts.find((account) => account.admin)!;
    await print(
      [
        `Demo data in project ${target.projectId} on the emulator suite:`,
        `  kiosks    ${kiosks.map((k) => `${k.id}${status(k.status)}`).join(', ')}`,
        `  accounts  ${accounts.map((a) => `${a.email} (uid ${a.uid}${a.admin ? ', admin' : ''}${a.erased ? ', erased: not seeded again' : ''})`).join(', ')}`,
        `            password "${DEMO_PASSWORD}"`,
        `  rewards   ${rewards.map((r) => `${r.id} (${r.cost} points)`).join(', ')}`,
        `  promotions ${promotions.map((p) => `${p.id} (${p.hours} at ${p.kioskIds?.join(', ')})`).join(', ')}`,
        `  API key   ${key.apiKey}`,
        `            for kiosk ${demoKiosk}, shown this once` +
          (key.revoked > 0 ? `; ${key.revoked} earlier demo key(s) revoked` : ''),
        '',
        'Ready to paste in another terminal, from the repository root (ID tokens are valid for an hour):',
        readyToPaste(target.projectId, demoKiosk, key.apiKey, accounts[0], admin),
      ].join('\n'),
    );
  },
};

const token: Command = {
  name: 'token',
  description: 'Signs in through the Auth emulator and prints only the ID token, e.g.',
  example: 'TOKEN=$(npm run --silent admin -- token --email alice@example.com)',
  flags: {
    email: { value: 'EMAIL', description: "the account's e-mail address", required: true },
    password: { value: 'PASSWORD', description: `its password (default: ${DEMO_PASSWORD})` },
  },
  uses: { auth: true },
  adminSdk: false,
  emulatorOnly: true,
  run: async (flags, target) => {
    const email = flags.required('email');
    const url = `http://${target.authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: flags.get('password') ?? DEMO_PASSWORD, returnSecureToken: true }),
    });
    const body = (await response.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
    if (!response.ok || !body.idToken) {
      throw new CliError(`sign-in failed for ${email}: ${body.error?.message ?? `HTTP ${response.status}`}`);
    }
    await print(body.idToken);
  },
};

export const demoCommands: readonly Command[] = [seed, token];
