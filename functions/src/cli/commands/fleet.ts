/** fleet, alerts, alerts:sweep: the fleet as operators watch it, through the same modules as GET /admin/*. */
import { fleetSettings } from '../../config';
import { listAlerts, toAlertView } from '../../data/alerts';
import { MAX_ALERT_PAGE, alertPageRequest } from '../../domain/alerts';
import { encodeCursor } from '../../domain/cursor';
import { fleetOverview } from '../../services/fleet';
import { runSilentSweep } from '../../triggers/silentSweep';
import { note, print, printJson, printListing, type Command } from '../command';
import { textTable } from '../table';

const json = { description: 'print JSON instead, as the API answers it' };
const percent = (level: number | null) => (level === null ? '-' : `${level}%`);
/** An ISO time to the minute, or `never`. */
const minute = (iso: string | null) => (iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')}Z`);

const fleet: Command = {
  name: 'fleet',
  description:
    'Prints every kiosk: status, online (seen within KIOSK_ONLINE_MINUTES), last seen, fill levels, firmware, ' +
    'error code and open alerts, as a table.',
  flags: { json },
  uses: { firestore: true },
  run: async (flags) => {
    const kiosks = await fleetOverview(new Date(), fleetSettings().onlineMinutes);
    const header = ['KIOSK', 'STATUS', 'ONLINE', 'LAST SEEN', 'PLASTIC', 'METAL', 'FIRMWARE', 'ERROR', 'OPEN ALERTS'];
    await printListing(
      flags,
      kiosks,
      header,
      (kiosk) => [
        kiosk.id,
        kiosk.status,
        kiosk.online ? 'yes' : 'no',
        minute(kiosk.lastSeenAt),
        percent(kiosk.fillLevel.plastic),
        percent(kiosk.fillLevel.metal),
        kiosk.firmwareVersion ?? '-',
        kiosk.errorCode ?? '-',
        kiosk.openAlerts.join(',') || '-',
      ],
      'No kiosks.',
    );
  },
};

const alerts: Command = {
  name: 'alerts',
  description:
    'Prints the open alerts (with --all, resolved ones too), newest first, one page; the command for the next ' +
    'page follows on stderr.',
  flags: {
    all: { description: 'resolved alerts too' },
    limit: { value: 'N', description: `alerts per page, 1-${MAX_ALERT_PAGE} (default 50)` },
    cursor: { value: 'CURSOR', description: 'where the previous page ended (it prints the flag to give)' },
    json,
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { state, limit, after } = alertPageRequest({
      state: flags.has('all') ? 'all' : 'open',
      limit: flags.get('limit'),
      cursor: flags.get('cursor'),
    });
    const page = await listAlerts(state, limit, after);
    const nextCursor = page.next && encodeCursor(page.next);
    const views = page.alerts.map(toAlertView);
    if (flags.has('json')) return printJson({ alerts: views, nextCursor });
    const rows = views.map((alert) => [
      minute(alert.openedAt),
      alert.kioskId,
      alert.kind,
      alert.resolvedAt === null ? 'open' : minute(alert.resolvedAt),
      alert.detail,
    ]);
    await print(textTable(['OPENED', 'KIOSK', 'KIND', 'RESOLVED', 'DETAIL'], rows));
    if (views.length === 0) await note(state === 'open' ? 'No open alerts.' : 'No alerts.');
    if (nextCursor) await note(`More: add --cursor ${nextCursor}`);
  },
};

const alertsSweep: Command = {
  name: 'alerts:sweep',
  description:
    'Runs the silent sweep once, as the scheduled function does every 5 minutes (npm start runs it on a timer: ' +
    'the emulator runs no schedules): opens a silent alert for each available kiosk unseen for ' +
    'KIOSK_ONLINE_MINUTES. Prints what it did as JSON.',
  flags: {},
  uses: { firestore: true },
  run: async () => {
    await printJson(await runSilentSweep());
  },
};

export const fleetCommands: readonly Command[] = [fleet, alerts, alertsSweep];
