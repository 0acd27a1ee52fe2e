// The browser tier's plumbing: Chromium driven by Playwright against the console on the
// Hosting emulator (the data the tests need comes from data.ts, through the API).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import {
  chromium as playwright,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { emulatorsFromEnv } from '../../functions/test/harness/emulators.ts';
import { emulatorsFound, newAccount } from './data.ts';

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

/** How a test's browser context differs from a person's usual one (see newPage). */
type ContextOptions = Pick<BrowserContextOptions, 'viewport' | 'locale' | 'userAgent'>;

/**
 * The browser of a test file (launched before its first test, closed after its last)
 * and the pages the tests open in it, each in a fresh context.
 */
export function browserOfFile() {
  let browser: Browser | undefined;
  before(async () => (browser = await launchBrowser()));
  after(() => browser?.close());
  const launched = () => browser ?? assert.fail('the browser is launched before the first test');
  return {
    newPage: (options?: ContextOptions) => newPage(launched(), options),
    operatorPage: (options?: ContextOptions) => operatorPage(launched(), options),
    /** A signed-in operator's page at `path` of the console, once it shows its heading. */
    operatorPageAt: async (path: string, heading: string) => {
      const opened = await operatorPage(launched());
      await opened.page.goto(consoleUrl(path));
      await opened.page.getByRole('heading', { level: 1, name: heading }).waitFor();
      return opened;
    },
  };
}

export function consoleUrl(path = '/'): string {
  const { hosting } = emulatorsFromEnv();
  if (!hosting) throw new Error('the Hosting emulator is not running (the browser tier runs with EMULATORS)');
  return `http://${hosting}${path}`;
}

/**
 * A page of a fresh browser context, at 1280×800 and in the locale en-US unless given (and Chromium's own user
 * agent); no session unless one is given (a stored one).
 */
export async function newPage(
  browser: Browser,
  {
    viewport = { width: 1280, height: 800 },
    // A locale as a person's browser has one: under LANG=C, Chromium's would be `en-US@posix`, which Intl refuses.
    locale = 'en-US',
    userAgent,
    storageState,
  }: ContextOptions & Pick<BrowserContextOptions, 'storageState'> = {},
) {
  const context: BrowserContext = await browser.newContext({ viewport, storageState, locale, userAgent });
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
async function operatorPage(browser: Browser, options?: ContextOptions) {
  const operator = await newAccount(true);
  const opened = await newPage(browser, options);
  await signIn(opened.page, operator);
  await opened.page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
  return { ...opened, operator };
}

/** Follows a link of the main navigation. */
export const goTo = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

/** Fills a form's fields, named by their labels (a select takes the option of that value). */
export async function fillIn(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = page.getByLabel(label, { exact: true });
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

/** Creates a key in the API keys section of the page (a double-click creates one): the key shown once. */
export async function createKey(page: Page, label: string): Promise<string> {
  await page.getByLabel('Key label').fill(label);
  await page.getByRole('button', { name: 'Create key' }).dblclick();
  const shown = page.getByLabel('New API key');
  await shown.waitFor();
  const key = await shown.inputValue();
  await page.getByRole('button', { name: 'Copy key' }).waitFor();
  return key;
}

/** axe-core on the page as it is: the serious and critical violations, described (none expected). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}
