// @ts-check
// Which processes and ports a stack left behind, read from /proc and by connecting:
// what scripts/measure-start.mjs checks after each stop. Linux only (/proc).
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * Resolves true when something accepts connections on 127.0.0.1:`port`.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Which of `ports` something listens on.
 * @param {number[]} ports
 */
export async function openPorts(ports) {
  const open = [];
  for (const port of ports) if (await listening(port)) open.push(port);
  return open;
}

/** @typedef {{ pid: number, started: string }} Proc a process, with its start time (guards against a reused pid) */

/** pid -> { ppid, started } for every process, from /proc. */
function processTable() {
  /** @type {Map<number, { ppid: number, started: string }>} */
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(fields[1]), started: fields[19] });
    } catch {
      // Ended while listed.
    }
  }
  return table;
}

/**
 * The process `root` and all its descendants.
 * @param {number} root
 */
function processTree(root) {
  const table = processTable();
  /** @type {Proc[]} */
  const tree = [];
  const queue = [root];
  while (queue.length) {
    const pid = /** @type {number} */ (queue.shift());
    const entry = table.get(pid);
    if (!entry) continue;
    tree.push({ pid, started: entry.started });
    for (const [child, { ppid }] of table) if (ppid === pid) queue.push(child);
  }
  return tree;
}

/** @param {Proc[]} tree */
export function stillRunning(tree) {
  const table = processTable();
  return tree.filter(({ pid, started }) => table.get(pid)?.started === started);
}

/** @param {number} pid */
export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(ended)';
  }
}

/**
 * Every process the launched one started, seen while it runs: a descendant whose parent
 * dies is handed to init and no longer found below the launched process.
 * @param {number} pid
 */
export function trackDescendants(pid) {
  /** @type {Map<number, Proc>} */
  const seen = new Map();
  const look = () => {
    for (const entry of processTree(pid)) seen.set(entry.pid, entry);
  };
  look();
  const timer = setInterval(look, 250);
  return { seen, look, stop: () => clearInterval(timer) };
}
