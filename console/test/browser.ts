// The browser tier's plumbing: Chromium driven by Playwright against the console on the
// Hosting emulator, accounts in the Auth emulator, data through the API itself. The
// emulator plumbing is the one harness the integration tests use (functions/test/harness).
import AxeBuilder from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createPasswordAccount, idTokenFor } from '../../functions/test/harness/auth.ts';
import { apiUrl, discoverEmulators, emulatorsFromEnv } from '../../functions/test/harness/emulators.ts';
import { waitFor } from '../../functions/test/harness/wait.ts';

export const PASSWORD = 'console-test-password';

let discovery: ReturnType<typeof discoverEmulators> | undefined;
/** The emulators of the run, asked of the hub once (the Hosting and functions hosts are not in the environment). */
const emulatorsFound = () => (discovery ??= discoverEmulators());

/**
 * Chromium from `@sparticuz/chromium` (an npm package, so `npm ci` installs it where
 * Playwright's own download cannot reach its host); CHROME_PATH names another
 * Chromium or Chrome, e.g. on a system that package does not support (macOS, arm64).
 */
export async function launchBrowser(): Promise<Browser> {
  await emulatorsFound();
  const executablePath = process.env.CHROME_PATH || (await chromium.executablePath());
  return playwright.launch({
    executablePath,
    headless: true,
    // No sandbox: CI runs as root. No background networking: this machine's network is closed.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export function consoleUrl(path = '/'): string {
  const { hosting } = emulatorsFromEnv();
  if (!hosting) throw new Error('the Hosting emulator is not running (the browser tier runs with EMULATORS)');
  return `http://${hosting}${path}`;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const uniqueId = (prefix: string) => `${prefix}-${unique()}`;

/** A new e-mail/password account; `admin`: an operator. */
export async function newAccount(admin: boolean): Promise<{ uid: string; email: string; password: string }> {
  const email = `${admin ? 'operator' : 'member'}-${unique()}@kiosk-rewards.test`;
  const uid = await createPasswordAccount({ email, password: PASSWORD, admin });
  return { uid, email, password: PASSWORD };
}

/** A page of a fresh browser context (no session), at 1280×800 unless given. */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  // A locale as a person's browser has one: under LANG=C, Chromium's would be `en-US@posix`, which Intl refuses.
  const context: BrowserContext = await browser.newContext({ viewport, locale: 'en-US' });
  // Map tiles come from the internet, which this machine does not reach: refuse them at once.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  return { context, page: await context.newPage() };
}

/** Signs in through the form and waits for the first page after it (Fleet). */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto(consoleUrl('/sign-in'));
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A signed-in operator on a fresh page. */
export async function operatorPage(browser: Browser, viewport?: { width: number; height: number }) {
  const operator = await newAccount(true);
  const opened = await newPage(browser, viewport);
  await signIn(opened.page, operator);
  await opened.page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
  return { ...opened, operator };
}

/** axe-core on the page as it is: the serious and critical violations, described (none expected). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

let operatorToken: Promise<string> | undefined;

/** The API as an operator calls it (for the data a test needs, and to check what the console did). */
export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  await emulatorsFound();
  operatorToken ??= idTokenFor('browser-tests-operator', { admin: true });
  const token = init.token ?? (await operatorToken);
  const response = await fetch(`${apiUrl()}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.headers?.['X-API-Key'] ? {} : { authorization: `Bearer ${token}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T };
}

/** Every document of a Firestore collection, as the emulator's REST API gives it (what no API shows: the push outbox). */
export async function firestoreDocuments(collection: string): Promise<unknown[]> {
  const { firestore, projectId } = emulatorsFromEnv();
  const documents: unknown[] = [];
  let pageToken = '';
  do {
    const response = await fetch(
      `http://${firestore}/v1/projects/${projectId}/databases/(default)/documents/${collection}?pageSize=300&pageToken=${pageToken}`,
      { headers: { authorization: 'Bearer owner' } },
    );
    const page = (await response.json()) as { documents?: unknown[]; nextPageToken?: string };
    documents.push(...(page.documents ?? []));
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return documents;
}

/**
 * Resolves once the kiosk's deposits of today are in its daily figures: the transaction
 * trigger counts a deposit into them after the deposit's answer (counters are eventual).
 */
export async function dayFiguresCounted(kioskId: string, transactions: number): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const report = () =>
    api<{ rows: { transactions: number }[] }>(`/admin/reports/kiosk-days?from=${day}&to=${day}&kioskId=${kioskId}`);
  await waitFor(
    `${transactions} transaction(s) of kiosk ${kioskId} in its figures of ${day}`,
    async () => ((await report()).body.rows?.[0]?.transactions === transactions ? true : undefined),
    60_000,
    async () => `the report answered ${JSON.stringify((await report()).body)}`,
  );
}

/** A kiosk and one of its keys, through the API. */
export async function seedKiosk(fields: { name?: string; latitude?: number; longitude?: number } = {}) {
  const id = uniqueId('kiosk');
  const created = await api('/admin/kiosks', {
    body: {
      id,
      name: fields.name ?? `Kiosk ${id}`,
      address: '1 Test Street',
      location: { latitude: fields.latitude ?? 52.37, longitude: fields.longitude ?? 4.89 },
    },
  });
  if (created.status !== 201) throw new Error(`kiosk not created: ${created.status} ${JSON.stringify(created.body)}`);
  const key = await api<{ apiKey: string; keyId: string }>(`/admin/kiosks/${id}/keys`, { body: { label: 'seed' } });
  return { id, apiKey: key.body.apiKey };
}
