// @ts-check
// `npm run kiosk -- <command> [flags]`: the command line of the kiosk simulator
// (simulator.ts, which the load test and the tests use too); help: options.mjs.
import { JournalFile } from './journal.ts';
import { SimulatedKiosk } from './simulator.ts';
import { backoffRetries } from './client.ts';
import { USAGE, UsageError, duration, parseCommandLine, rate, wholeNumber } from './options.mjs';
import { createPrinter, describeJournal } from './print.mjs';
import { runScenario } from './scenario.mjs';

/**
 * @param {Record<string, string | boolean>} flags
 * @param {string} name
 */
const given = (flags, name) => (typeof flags[name] === 'string' ? /** @type {string} */ (flags[name]) : undefined);

/** @param {Record<string, string | boolean>} flags */
function statusReport(flags) {
  const status = given(flags, 'status') ?? 'available';
  if (!['available', 'maintenance', 'offline'].includes(status))
    throw new UsageError(`--status must be available, maintenance or offline, not '${status}'`);
  if (flags['error-code'] !== undefined && flags['clear-error'])
    throw new UsageError('give --error-code or --clear-error, not both');
  /** @type {import('./simulator.ts').StatusReport} */
  const report = { status: /** @type {'available'} */ (status) };
  const plastic =
    flags['fill-plastic'] === undefined ? undefined : wholeNumber('fill-plastic', flags['fill-plastic'], 0, 100);
  const metal = flags['fill-metal'] === undefined ? undefined : wholeNumber('fill-metal', flags['fill-metal'], 0, 100);
  if (plastic !== undefined || metal !== undefined) report.fillLevel = { plastic, metal };
  if (given(flags, 'firmware')) report.firmwareVersion = given(flags, 'firmware');
  if (given(flags, 'error-code')) report.errorCode = given(flags, 'error-code');
  if (flags['clear-error']) report.errorCode = null;
  return report;
}

/** @param {Record<string, string | boolean>} flags */
function depositInput(flags) {
  const userId = flags.anonymous ? null : given(flags, 'user');
  if (flags.anonymous && flags.user !== undefined) throw new UsageError('give --user or --anonymous, not both');
  if (userId === undefined) throw new UsageError('deposit needs --user, or --anonymous');
  if (flags.at !== undefined && flags.ago !== undefined) throw new UsageError('give --at or --ago, not both');
  let occurredAt;
  if (given(flags, 'at')) {
    const at = new Date(/** @type {string} */ (given(flags, 'at')));
    if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be an RFC 3339 time, not '${given(flags, 'at')}'`);
    occurredAt = at.toISOString();
  } else if (flags.ago !== undefined) occurredAt = new Date(Date.now() - duration('ago', flags.ago)).toISOString();
  return {
    userId,
    plasticCount: flags.plastic === undefined ? 1 : wholeNumber('plastic', flags.plastic, 0, 1000),
    metalCount: flags.metal === undefined ? 0 : wholeNumber('metal', flags.metal, 0, 1000),
    occurredAt,
  };
}

/** @param {Record<string, string | boolean>} flags */
function scenarioOf(flags) {
  const users = (given(flags, 'users') ?? '').split(',').filter(Boolean);
  if (users.length === 0) throw new UsageError('run needs --users, e.g. --users demo-alice,demo-bob');
  const optional = (/** @type {string} */ name, /** @type {number} */ fallback) =>
    flags[name] === undefined ? fallback : duration(name, flags[name]);
  return {
    users,
    perSecond: flags.rate === undefined ? 1 : rate(flags.rate),
    durationMs: optional('duration', 60_000),
    offlineAfterMs: optional('offline-after', Infinity),
    offlineForMs: optional('offline-for', Infinity),
    backdateMs: optional('backdate', 0),
    statusEveryMs: optional('status-every', 30_000),
    batch: flags.batch === undefined ? 100 : wholeNumber('batch', flags.batch, 1, 100),
    telemetry: flags.telemetry
      ? {
          binSize: flags['bin-size'] === undefined ? 400 : wholeNumber('bin-size', flags['bin-size'], 1, 1_000_000),
          firmware: given(flags, 'firmware') ?? 'kiosk-sim/1.0',
        }
      : undefined,
  };
}

/**
 * Runs one command; resolves with the exit status.
 * @param {string[]} argv
 */
async function main(argv) {
  const { command, flags, options } = parseCommandLine(argv);
  if (command === 'help') {
    console.log(USAGE);
    return 0;
  }
  // Everything the command line says is checked before the journal is opened or anything is sent.
  const report = command === 'status' ? statusReport(flags) : undefined;
  const input = command === 'deposit' ? depositInput(flags) : undefined;
  const scenario = command === 'run' ? scenarioOf(flags) : undefined;
  const batch = command === 'flush' && flags.batch !== undefined ? wholeNumber('batch', flags.batch, 1, 100) : 100;
  const needsKey = command !== 'journal' && !(command === 'deposit' && flags.offline);
  if (needsKey && !options.apiKey)
    throw new UsageError("give the kiosk API key with --key or KIOSK_KEY (npm start prints the demo kiosk's)");

  const journal = JournalFile.open(options.journalPath, options.kioskId);
  const printer = createPrinter(undefined, { qr: command === 'deposit' });
  const kiosk = new SimulatedKiosk({
    api: options.api,
    apiKey: options.apiKey ?? '',
    journal,
    policy: backoffRetries({ attempts: options.attempts }),
    onEvent: printer.onEvent,
  });
  try {
    switch (command) {
      case 'status':
        return (await kiosk.reportStatus(/** @type {any} */ (report))) === 200 ? 0 : 1;
      case 'deposit': {
        kiosk.setConnected(!flags.offline);
        const { verdict } = await kiosk.deposit(/** @type {any} */ (input));
        if (verdict !== 'accepted') console.log(describeJournal(journal.state, journal.path));
        return flags.offline || verdict === 'accepted' ? 0 : 1;
      }
      case 'flush': {
        console.log(`uploading ${journal.state.pending.length} pending deposits to ${options.api}`);
        const summary = await kiosk.flush(batch);
        console.log(
          `flush: ${summary.uploads} batches; ${summary.accepted} awarded (+${summary.points} points), ${summary.replayed} replayed, ${summary.rejected} refused, ${summary.kept} kept, ${summary.overloaded} answered overloaded and sent again${summary.stopped ? `; stopped: ${summary.stopped}` : ''}`,
        );
        console.log(describeJournal(journal.state, journal.path));
        return journal.state.pending.length ? 1 : 0;
      }
      case 'journal':
        return showJournal(journal, Boolean(flags['forget-rejected']));
      default: {
        const stop = new AbortController();
        process.once('SIGINT', () => {
          console.log('stopping (Ctrl-C again to quit at once; the journal keeps what is pending)');
          stop.abort();
          process.once('SIGINT', () => process.exit(130));
        });
        console.log(`kiosk ${options.kioskId} against ${options.api}; ${describeJournal(journal.state, journal.path)}`);
        await runScenario(kiosk, /** @type {any} */ (scenario), stop.signal);
        for (const line of printer.summary(journal.state, journal.path)) console.log(line);
        return kiosk.connected && journal.state.pending.length ? 1 : 0;
      }
    }
  } finally {
    journal.close();
  }
}

/**
 * @param {JournalFile} journal
 * @param {boolean} forgetRejected
 */
function showJournal(journal, forgetRejected) {
  const { state } = journal;
  console.log(describeJournal(state, journal.path));
  console.log(`next key: ${state.kioskId}-${state.series}-${state.nextSequence}`);
  for (const deposit of state.pending)
    console.log(
      `  pending ${deposit.idempotencyKey}: ${deposit.userId} ${deposit.plasticCount} plastic ${deposit.metalCount} metal, occurred ${deposit.occurredAt}`,
    );
  for (const { deposit, status, code, error, at } of state.rejected)
    console.log(
      `  refused ${deposit.idempotencyKey} at ${at}: ${status}${code ? ` ${code}` : ''}${error ? `: ${error}` : ''}`,
    );
  if (forgetRejected) {
    const count = state.rejected.length;
    state.rejected = [];
    journal.save();
    console.log(`forgot ${count} refused deposits`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`error: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
