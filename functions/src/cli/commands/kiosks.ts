/** kiosk:upsert, key:create, key:revoke: the CLI side of the admin kiosk routes. */
import { fleetSettings } from '../../config';
import { assertKioskExists, upsertKiosk } from '../../data/kiosks';
import { issueKey, revokeKey } from '../../data/kioskKeys';
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_TIMEZONE,
  assertKioskDefinition,
  toKioskView,
  type KioskDefinition,
} from '../../domain/kiosk';
import type { AdminKioskBody } from '../../model/requestBodies';
import { validateBody } from '../../http/validation';
import { numberOrText } from '../args';
import { apiKeyCommands } from '../apiKeyCommands';
import { note, printJson, type Command } from '../command';
import { KIOSK_STATUSES } from '../../model/vocabulary';

/** A kiosk as flags or the demo data give it: the coordinates may still be text, for the schema to refuse. */
export interface KioskInput {
  id: string;
  name: string;
  address: string;
  location: { latitude: number | string; longitude: number | string };
  openingHours?: string;
  timezone?: string;
  status?: string;
}

/** The checks of POST /admin/kiosks: its request schema, then the kiosk rules both share. */
export function validatedKiosk(input: KioskInput): KioskDefinition {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return assertKioskDefinition(validateBody<AdminKioskBody>('adminKioskBody', given));
}

const kioskUpsert: Command = {
  name: 'kiosk:upsert',
  description:
    `Creates a kiosk (defaults: ${DEFAULT_OPENING_HOURS}, ${DEFAULT_TIMEZONE}, available) or updates one ` +
    '(omitted fields and the counters are kept). Prints the kiosk as JSON.',
  flags: {
    id: { value: 'ID', description: 'the kiosk id', required: true },
    name: { value: 'NAME', description: 'the name users see', required: true },
    address: { value: 'ADDRESS', description: 'the street address', required: true },
    lat: { value: 'LATITUDE', description: 'degrees, -90 to 90', required: true },
    lng: { value: 'LONGITUDE', description: 'degrees, -180 to 180', required: true },
    hours: { value: 'HOURS', description: 'opening hours in OpenStreetMap syntax, e.g. "Mo-Fr 08:00-20:00"' },
    timezone: { value: 'ZONE', description: 'the IANA time zone of the opening hours, e.g. Europe/Berlin' },
    status: { value: 'STATUS', description: `the status users see: ${KIOSK_STATUSES.join(', ')}` },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const definition = validatedKiosk({
      id: flags.required('id'),
      name: flags.required('name'),
      address: flags.required('address'),
      location: { latitude: numberOrText(flags.required('lat')), longitude: numberOrText(flags.required('lng')) },
      openingHours: flags.get('hours'),
      timezone: flags.get('timezone'),
      status: flags.get('status'),
    });
    const { kiosk, created } = await upsertKiosk(definition);
    await note(`${created ? 'Created' : 'Updated'} kiosk ${kiosk.id}.`);
    await printJson(toKioskView(kiosk, new Date(), fleetSettings().onlineMinutes));
  },
};

const [keyCreate, keyRevoke] = apiKeyCommands({
  holder: 'kiosk',
  prefix: 'key',
  keyField: 'apiKey',
  labelExample: 'where it is installed',
  storedIn: "the kiosk's configuration",
  revokes: 'an API key',
  assertExists: assertKioskExists,
  issueKey,
  revokeKey,
});

export const kioskCommands: readonly Command[] = [kioskUpsert, keyCreate, keyRevoke];
