/** partner:upsert, partner:list, partner-key:create, partner-key:revoke: the CLI side of the admin partner routes (§12). */
import { allPartners, assertPartnerExists, partnerKeys, upsertPartner } from '../../data/partners';
import { assertDocumentId } from '../../domain/ids';
import type { KioskKeyBody, PartnerBody } from '../../http/apiDescription/requestBodies';
import { validateBody } from '../../http/validation';
import { textTable } from '../table';
import { CliError, note, print, printJson, type Command } from '../command';

const partnerUpsert: Command = {
  name: 'partner:upsert',
  description: 'Creates a partner or renames one, checked as POST /admin/partners checks it. Prints it as JSON.',
  example: 'npm run admin -- partner:upsert --id kaffee-alex --name "Kaffee Alex"',
  flags: {
    id: { value: 'ID', description: 'the partner id', required: true },
    name: { value: 'NAME', description: 'what the partner is called', required: true },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { id, name } = validateBody<PartnerBody>('partnerBody', {
      id: flags.required('id'),
      name: flags.required('name'),
    });
    const { partner, created } = await upsertPartner(id, name);
    await note(`${created ? 'Created' : 'Updated'} partner ${partner.id}.`);
    await printJson(partner);
  },
};

const partnerList: Command = {
  name: 'partner:list',
  description: 'Lists every partner, by id.',
  flags: { json: { description: 'print the partners as JSON instead' } },
  uses: { firestore: true },
  run: async (flags) => {
    const partners = await allPartners();
    if (flags.has('json')) return printJson(partners);
    await print(
      textTable(
        ['ID', 'NAME'],
        partners.map((p) => [p.id, p.name]),
      ),
    );
  },
};

const partnerKeyCreate: Command = {
  name: 'partner-key:create',
  description: 'Issues an API key for the partner. Prints keyId and key; the key is shown this once.',
  flags: {
    partner: { value: 'ID', description: 'the partner the key is for', required: true },
    label: { value: 'LABEL', description: 'a note on the key, e.g. which till' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const partnerId = assertDocumentId(flags.required('partner'), 'partner');
    const { label } = validateBody<KioskKeyBody>('kioskKeyBody', { label: flags.get('label') ?? '' });
    await assertPartnerExists(partnerId);
    const { keyId, apiKey } = await partnerKeys.issueKey(partnerId, label ?? '');
    await note(`Issued an API key for partner ${partnerId}. It is shown this once: store it in the partner's till.`);
    await printJson({ partnerId, keyId, key: apiKey });
  },
};

const partnerKeyRevoke: Command = {
  name: 'partner-key:revoke',
  description: 'Revokes a partner API key; it stops working at once.',
  flags: {
    partner: { value: 'ID', description: 'the partner the key is for', required: true },
    key: { value: 'KEY_ID', description: 'the keyId partner-key:create printed', required: true },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const partnerId = assertDocumentId(flags.required('partner'), 'partner');
    const keyId = assertDocumentId(flags.required('key'), 'key');
    if (!(await partnerKeys.revokeKey(partnerId, keyId))) {
      throw new CliError(`API key ${keyId} not found for partner ${partnerId}`);
    }
    await print(`Revoked API key ${keyId} of partner ${partnerId}.`);
  },
};

export const partnerCommands: readonly Command[] = [partnerUpsert, partnerList, partnerKeyCreate, partnerKeyRevoke];
