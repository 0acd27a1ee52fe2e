// redocly from the document the running API serves (GET /openapi.json), built when first asked for and again when that
// document changed: no start-up cost, never an old API. The API itself answers only JSON.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { cacheDir } from './paths.mjs';
import { buildReferencePage } from './redocly.cjs';

const PORT = 8090;
export const API_REFERENCE_URL = `http://127.0.0.1:${PORT}/`;

/** Serves the page on every path (the page links its sections by path, e.g. /kiosk-devices). @param {string} apiUrl */
export function serveApiReference(apiUrl) {
  const dir = join(cacheDir, 'api-reference');
  const documentFile = join(dir, 'openapi.json');
  const pageFile = join(dir, 'index.html');
  /** @type {{ document: string, page: Buffer } | undefined} The last build. */
  let built;
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();

  async function currentPage() {
    const response = await fetch(`${apiUrl}/openapi.json`);
    if (!response.ok) throw new Error(`${apiUrl}/openapi.json answered ${response.status}`);
    const document = await response.text();
    if (built?.document !== document) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(documentFile, document);
      const result = await buildReferencePage(documentFile, pageFile);
      if (result.status !== 0) throw new Error(`redocly build-docs failed:\n${result.stdout}${result.stderr}`);
      built = { document, page: readFileSync(pageFile) };
    }
    return built.page;
  }

  const server = createServer((req, res) => {
    // One build at a time: requests that arrive meanwhile get its result.
    const page = queue.then(currentPage);
    queue = page.catch(() => undefined);
    page.then(
      (body) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(body);
      },
      (error) => {
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`The API reference could not be built: ${error.message}\n`);
      },
    );
  });
  server.on('error', (error) => console.error(`The API reference page is not served: ${error.message}`));
  server.listen(PORT, '127.0.0.1');
  return server;
}
