/**
 * The API description through @redocly/cli: it lints clean under the recommended
 * rules (redocly.yaml at the root says which rule is off and why), and the reference
 * page built from it (`npm start` serves the same page) names every operation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiDocument, operations } from '../api-description';

type Outcome = { status: number | null; stdout: string; stderr: string };
const { repoRoot, redocly, buildReferencePage } = require('../../../scripts/lib/redocly.cjs') as {
  repoRoot: string;
  redocly: (args: string[]) => Promise<Outcome>;
  buildReferencePage: (documentFile: string, pageFile: string) => Promise<Outcome>;
};

// The path .redocly.lint-ignore.yaml names its exceptions under.
const outDir = join(repoRoot, '.cache', 'api-description');
const documentFile = join(outDir, 'openapi.json');
const pageFile = join(outDir, 'reference.html');

beforeAll(() => {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(documentFile, JSON.stringify(apiDocument, null, 2));
});

const failureOf = (result: Outcome) => `exit ${result.status}\n${result.stdout}\n${result.stderr}`;

test('the document lints clean with the recommended rules', async () => {
  const result = await redocly(['lint', documentFile, '--format=json']);
  let report: { totals?: object; problems?: unknown[] };
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`redocly lint gave no report: ${failureOf(result)}`);
  }
  expect({ totals: report.totals, problems: report.problems }).toEqual({
    totals: { errors: 0, warnings: 0, ignored: 2 },
    problems: [],
  });
  expect(result.status).toBe(0);
}, 60_000);

/** The text the page shows before its script runs: tags dropped, the entities Redoc writes decoded. */
function prerenderedText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * What the page renders its operations from: Redoc prerenders the introduction and the
 * navigation by group, and renders each group's operations in the browser from the
 * document the page embeds (`__redoc_definition`).
 */
function embeddedDocument(html: string): {
  paths: Record<string, Record<string, { operationId: string; summary: string }>>;
} {
  const match = html.match(/const __redoc_definition = (.*);\n/);
  if (!match) throw new Error('the page embeds no API description');
  return JSON.parse(match[1]);
}

describe('the reference page', () => {
  let html: string;
  let embedded: ReturnType<typeof embeddedDocument>;

  beforeAll(async () => {
    const result = await buildReferencePage(documentFile, pageFile);
    if (result.status !== 0) throw new Error(`build-docs failed: ${failureOf(result)}`);
    html = readFileSync(pageFile, 'utf8');
    embedded = embeddedDocument(html);
  }, 60_000);

  it.each(operations().map(({ method, template, node }) => [`${method} ${template}`, method, template, node] as const))(
    'names %s by its operation id and summary',
    (_operation, method, template, node) => {
      expect(embedded.paths[template]?.[method.toLowerCase()]).toMatchObject({
        operationId: node.operationId,
        summary: node.summary,
      });
    },
  );

  it('lists every group in its navigation, and the introduction', () => {
    const text = prerenderedText(html);
    for (const tag of apiDocument.tags) expect(text).toContain(tag.name);
    expect(text).toContain(apiDocument.info.title);
    expect(text).toContain('Every error is JSON');
  });

  it('is self-contained: Redoc is inlined, not loaded from a CDN', () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/import .* from "https?:/);
  });
});
