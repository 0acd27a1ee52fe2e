// The console's figures (`node scripts/bench/console.mjs <results.json> [--quick]`, with Hosting): the first page's
// JavaScript as Hosting compresses it, and navigation -> Fleet table rendered, empty HTTP cache.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { consoleUrl, launchBrowser, newPage, signIn } from '../../console/test/browser.ts';
import { api, newAccount, seedKiosk } from '../../console/test/data.ts';
import { median } from '../lib/stats.mjs';

const [resultsFile, flag] = process.argv.slice(2);
const quick = flag === '--quick';
const runs = quick ? 2 : 5;
const kiosks = quick ? 10 : 100;

for (let i = 0; i < kiosks; i++)
  await seedKiosk({ latitude: 52 + (i % 10) / 10, longitude: 4 + Math.floor(i / 10) / 10 });
const operator = await newAccount(true);
const browser = await launchBrowser();

// Signed in once; each run starts from that session (its IndexedDB) with an empty cache.
const first = await newPage(browser);
await signIn(first.page, operator);
await first.page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
const session = await first.context.storageState({ indexedDB: true });
await first.context.close();

let scripts = /** @type {{ url: string, bytes: number, gzip: number }[]} */ ([]);
const renderedMs = /** @type {number[]} */ ([]);
for (let run = 0; run < runs; run++) {
  const { context, page } = await newPage(browser, { storageState: session });
  const loaded = /** @type {Promise<{ url: string, bytes: number, gzip: number }>[]} */ ([]);
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const url = new URL(response.url()).pathname;
    loaded.push(response.body().then((body) => ({ url, bytes: body.length, gzip: gzipSync(body).length })));
  });
  await page.goto(consoleUrl('/fleet'));
  await page.getByRole('table', { name: 'Kiosks' }).getByRole('row').nth(1).waitFor();
  renderedMs.push(await page.evaluate(() => performance.now()));
  scripts = await Promise.all(loaded);
  await context.close();
  console.log(`  console run ${run + 1}/${runs}: Fleet table rendered after ${renderedMs[run].toFixed(0)} ms`);
}
await browser.close();
const results = {
  measuredAt: new Date().toISOString(),
  kiosks: (await api('/admin/kiosks')).body.kiosks.length,
  runs,
  renderedMs,
  medianMs: median(renderedMs),
  scripts,
  gzipTotal: scripts.reduce((sum, script) => sum + script.gzip, 0),
};
/** @typedef {typeof results} ConsoleResults */
writeFileSync(resultsFile, JSON.stringify(results));
