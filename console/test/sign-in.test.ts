// Sign-in, sign-out, who gets in, an expired session and an unknown URL (contract §11).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { revokeSessions } from '../../functions/test/harness/auth.ts';
import { browserOfFile, consoleUrl, goTo, seriousViolations, signIn } from './browser.ts';
import { newAccount } from './data.ts';

const { newPage, operatorPage } = browserOfFile();

/** Signs in on a fresh page and is refused: an alert (saying `why` when given), and no navigation. */
async function refusedSignIn(account: { email: string; password: string }, why?: string) {
  const opened = await newPage();
  await signIn(opened.page, account);
  const alert = opened.page.getByRole('alert');
  await (why ? alert.filter({ hasText: why }) : alert).waitFor();
  assert.equal(await opened.page.getByRole('navigation', { name: 'Main' }).count(), 0);
  return opened;
}

test('an operator signs in with e-mail and password, sees every page of the navigation and signs out', async () => {
  const { page, context } = await operatorPage();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Fleet', 'Alerts', 'Reports', 'Rewards', 'Users', 'Campaigns']) {
    await nav.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    assert.equal(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current'), 'page');
    assert.match(await page.title(), new RegExp(`^${name} · Kiosk Rewards console$`));
  }
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  // Signed out for real: the console's pages send back to the sign-in form.
  await page.goto(consoleUrl('/fleet'));
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await context.close();
});

test('an account without the admin claim is told it is not an operator, and sees nothing else', async () => {
  const { page, context } = await refusedSignIn(await newAccount(false), 'not an operator');
  assert.deepEqual(await seriousViolations(page), []);
  await page.goto(consoleUrl('/fleet'));
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await context.close();
});

test('a wrong password is an error on the form, not a sign-in', async () => {
  const operator = await newAccount(true);
  const { context } = await refusedSignIn({ ...operator, password: 'not-the-password' });
  await context.close();
});

/**
 * Presses Tab (Shift+Tab: `backwards`) until `target` has the focus, as a keyboard user reaches it (at most 40
 * times). After a navigation the focus is on the page's h1, so the navigation above it is reached backwards
 * whatever the page holds.
 */
async function tabTo(page: Page, target: Locator, { backwards = false } = {}): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

test('the sign-in page has no serious accessibility violation, and the keyboard alone signs in and opens a page', async () => {
  const operator = await newAccount(true);
  const { page, context } = await newPage();
  await page.goto(consoleUrl('/sign-in'));
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(operator.email);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(operator.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }), {
    backwards: true,
  });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  await context.close();
});

test('a session revoked on the server returns to sign-in with a message', async () => {
  const { page, context, operator } = await operatorPage();
  await revokeSessions(operator.uid);
  // The next API call carries a revoked token: the API answers 401 and the console says why.
  await goTo(page, 'Alerts');
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByText(/session has expired/i).waitFor();
  await context.close();
});

test('an unknown console URL shows a not-found page with a way back', async () => {
  const { page, context } = await operatorPage();
  await page.goto(consoleUrl('/no-such-page'));
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('link', { name: 'Go to Fleet' }).click();
  await page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
  await context.close();
});
