/**
 * The operator CLI (`npm run admin -- <command>`): kiosks, kiosk API keys, the fleet's
 * health and alerts, the effects sweep, the daily report, the ledger's books, users' points and history,
 * the admin claim, the rewards config, the rewards catalog and redemptions, the expiry of points, the
 * migration of older versions' data, and demo data, through the Admin SDK and the same data and domain modules as the API, under
 * the project's params (cli/params.ts). Never imported by index.ts, so the deployed
 * functions do not load it.
 *
 * Output: results on stdout (JSON where a script may read them), notes on stderr.
 * Exit codes: 0 done, 1 failed (one line on stderr), 2 bad usage.
 */
import { deleteApp, getApps, initializeApp } from 'firebase-admin/app';
import { sendLogsTo } from '../log';
import { checkFlags, parseCommandLine } from './args';
import { note, print, type Command } from './command';
import { adminCommands } from './commands/admins';
import { demoCommands } from './commands/demo';
import { effectsCommands } from './commands/effects';
import { fleetCommands } from './commands/fleet';
import { kioskCommands } from './commands/kiosks';
import { reportCommands } from './commands/reports';
import { ledgerCommands } from './commands/ledger';
import { migrateCommands } from './commands/migrate';
import { pointsCommands } from './commands/points';
import { rewardsCommands } from './commands/rewards';
import { catalogCommands } from './commands/catalog';
import { expiryCommands } from './commands/expiry';
// Webhooks (contract §13).
import { webhookCommands } from './commands/webhooks';
import { partnerCommands } from './commands/partners';
import { peopleCommands } from './commands/people';
// Promotions (contract §16).
import { promotionCommands } from './commands/promotions';
// Trust (contract §17).
import { trustCommands } from './commands/trust';
import { loadProjectParams } from './params';
import { assertAnswers, resolveTarget } from './target';
import { usageText } from './usage';
import { CliError, UsageError } from './errors';

/** In the order the help lists them. */
const COMMANDS: readonly Command[] = [
  ...kioskCommands,
  ...fleetCommands,
  ...effectsCommands,
  ...reportCommands,
  ...adminCommands,
  ...rewardsCommands,
  ...catalogCommands,
  ...ledgerCommands,
  ...migrateCommands,
  ...pointsCommands,
  ...expiryCommands,
  ...peopleCommands,
  ...demoCommands,
  // Webhooks (contract §13).
  ...webhookCommands,
  // Partners and vouchers (§12)
  ...partnerCommands,
  // Promotions (contract §16).
  ...promotionCommands,
  // Trust (contract §17).
  ...trustCommands,
];

async function run(argv: string[]): Promise<void> {
  const { command, flags } = parseCommandLine(argv, COMMANDS);
  const spec = COMMANDS.find((candidate) => candidate.name === command);
  if (!spec) {
    await print(usageText(COMMANDS));
    return;
  }
  checkFlags(spec, flags);
  const target = resolveTarget(flags);
  if (spec.emulatorOnly && !target.emulator) {
    throw new CliError(`${spec.name} works against the emulator suite only, not a real project`);
  }
  if (target.emulator) {
    const emulatorOnly = spec.emulatorOnly === true;
    if (spec.uses.firestore) await assertAnswers('Firestore emulator', target.firestoreHost!, emulatorOnly);
    if (spec.uses.auth) await assertAnswers('Auth emulator', target.authHost!, emulatorOnly);
  }
  loadProjectParams(target.projectId);
  // PUSH_TRANSPORT=auto (functions/.env) or unset: the functions tell the emulators (pushOutbox) from a deployment
  // (FCM) by FUNCTIONS_EMULATOR (config.ts pushTransportName), which the CLI never has; it knows its target instead.
  if (process.env.PUSH_TRANSPORT !== 'fcm' && process.env.PUSH_TRANSPORT !== 'outbox') {
    process.env.PUSH_TRANSPORT = target.emulator ? 'outbox' : 'fcm';
  }
  if (spec.adminSdk !== false) initializeApp({ projectId: target.projectId });
  await spec.run(flags, target);
}

/** One line, no stack: the operator needs the reason, not the internals. */
function describeFailure(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return /default credentials/i.test(message)
    ? `${message} (sign in with: gcloud auth application-default login)`
    : message;
}

async function main(): Promise<number> {
  // The services' log events (an alert opened by alerts:sweep, say) are notes: stdout is for results.
  sendLogsTo((entry) => process.stderr.write(`${JSON.stringify(entry)}\n`));
  let code = 0;
  try {
    await run(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      await note(`error: ${error.message}\n\n${usageText(COMMANDS)}`);
      code = 2;
    } else {
      await note(`error: ${describeFailure(error)}`);
      code = 1;
    }
  }
  // Open Firestore channels would keep the process alive.
  await Promise.all(getApps().map((app) => deleteApp(app).catch(() => undefined)));
  return code;
}

void main().then((code) => process.exit(code));
