// @ts-check
// Where a warm instance's CPU goes: a V8 CPU profile's samples, each charged to the
// innermost JavaScript frame that has a source file (a builtin such as JSON.stringify
// or Intl counts for the code that called it), grouped by who wrote that code.
import { readFileSync } from 'node:fs';

export const CPU_CATEGORIES = [
  'the service’s code (functions/lib)',
  'floor function code',
  'HTTP: functions-framework, express, Node http/net/streams',
  'Firestore client: SDK, google-gax, gRPC, protobuf, HTTP/2',
  'per-request context: domains, async hooks',
  'firebase-functions (request wrapper, logger, params)',
  'garbage collection',
  'other (Node internals, timers, microtasks, V8)',
];

const HTTP =
  /node_modules\/(@google-cloud\/functions-framework|express|router|body-parser|raw-body|on-finished|finalhandler|send|type-is|content-type|accepts|qs|iconv-lite|cookie|depd|negotiator|mime|etag|fresh|range-parser|encodeurl|escape-html|parseurl|proxy-addr|statuses|vary|serve-static|media-typer|forwarded|ipaddr\.js|http-errors|destroy|unpipe|ee-first|merge-descriptors|utils-merge|methods|path-to-regexp|readable-stream|cors)\/|^node:(_http_|http$|https$|net$|internal\/(http|stream_base|streams|js_stream|net|dns))/;
const FIRESTORE =
  /node_modules\/(@google-cloud\/firestore|google-gax|@grpc\/|protobufjs|@protobufjs|google-auth-library|gcp-metadata|gtoken|@opentelemetry|long|lodash\.)|^node:internal\/http2/;
const CONTEXT =
  /^node:(domain$|internal\/async_hooks|async_hooks$|internal\/async_local_storage|internal\/process\/execution|internal\/process\/report)/;

/**
 * @param {string} url
 * @param {string} [floorDir]
 */
function categoryOf(url, floorDir) {
  if (url.includes('/functions/lib/')) return CPU_CATEGORIES[0];
  if (floorDir && url.includes(floorDir)) return CPU_CATEGORIES[1];
  if (url.includes('node_modules/firebase-functions/')) return CPU_CATEGORIES[5];
  if (HTTP.test(url)) return CPU_CATEGORIES[2];
  if (FIRESTORE.test(url)) return CPU_CATEGORIES[3];
  if (CONTEXT.test(url)) return CPU_CATEGORIES[4];
  return CPU_CATEGORIES[7];
}

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], error?: string }} Profile
 */

/**
 * CPU milliseconds per category (idle excluded) of one .cpuprofile file.
 * @param {string} file
 * @param {string} [floorDir]
 */
export function cpuByCategory(file, floorDir) {
  /** @type {Profile} */
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  if (profile.error) throw new Error(`CPU profile failed: ${profile.error}`);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** @type {Map<number, string | null>} */
  const categoryOfNode = new Map();
  /** @type {(id: number) => string | null} the category of a sample's node; null for idle */
  const resolve = (id) => {
    const known = categoryOfNode.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id);
    if (!node) throw new Error(`CPU profile: no node ${id}`);
    const { callFrame } = node;
    const parentId = parent.get(id);
    let category;
    if (callFrame.functionName === '(idle)') category = null;
    else if (callFrame.functionName === '(garbage collector)') category = CPU_CATEGORIES[6];
    else if (callFrame.url) category = categoryOf(callFrame.url, floorDir);
    else category = parentId !== undefined ? resolve(parentId) : CPU_CATEGORIES[7];
    categoryOfNode.set(id, category);
    return category;
  };
  const ms = Object.fromEntries(CPU_CATEGORIES.map((category) => [category, 0]));
  profile.samples.forEach((id, i) => {
    const category = resolve(id);
    if (category) ms[category] += (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return ms;
}
