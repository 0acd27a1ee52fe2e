/** partner:upsert, partner:list, partner-key:create, partner-key:revoke: the CLI side of the admin partner routes (§12). */
import { allPartners, assertPartnerExists, partnerKeys, upsertPartner } from '../../data/partners';
import type { PartnerBody } from '../../model/requestBodies';
import { validateBody } from '../../http/validation';
import { apiKeyCommands } from '../apiKeyCommands';
import { note, printJson, printListing, type Command } from '../command';

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
  run: async (flags) => printListing(flags, await allPartners(), ['ID', 'NAME'], (p) => [p.id, p.name]),
};

const [partnerKeyCreate, partnerKeyRevoke] = apiKeyCommands({
  holder: 'partner',
  prefix: 'partner-key',
  keyField: 'key',
  labelExample: 'which till',
  storedIn: "the partner's till",
  revokes: 'a partner API key',
  assertExists: assertPartnerExists,
  issueKey: partnerKeys.issueKey,
  revokeKey: partnerKeys.revokeKey,
});

export const partnerCommands: readonly Command[] = [partnerUpsert, partnerList, partnerKeyCreate, partnerKeyRevoke];
