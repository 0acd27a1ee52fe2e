/**
 * The CLI's two commands for the API keys of one kind of holder (kiosks, partners),
 * whose keys are stored alike (data/apiKeys.ts): issue one, revoke one.
 */
import { assertDocumentId } from '../domain/ids';
import type { KioskKeyBody } from '../model/requestBodies';
import { validateBody } from '../http/validation';
import { note, print, printJson, type Command } from './command';
import { CliError } from './errors';

export interface KeyHolder {
  holder: 'kiosk' | 'partner';
  /** The commands' names before `:create` and `:revoke`. */
  prefix: string;
  /** The JSON field that carries the new key in what `:create` prints. */
  keyField: 'apiKey' | 'key';
  /** The label flag's example, and where the operator stores the new key. */
  labelExample: string;
  storedIn: string;
  /** What `:revoke` says it revokes. */
  revokes: string;
  assertExists: (holderId: string) => Promise<unknown>;
  issueKey: (holderId: string, label: string) => Promise<{ keyId: string; apiKey: string }>;
  revokeKey: (holderId: string, keyId: string) => Promise<boolean>;
}

export function apiKeyCommands(kind: KeyHolder): [create: Command, revoke: Command] {
  const { holder, prefix } = kind;
  const holderFlag = { value: 'ID', description: `the ${holder} the key is for`, required: true } as const;
  const holderIdOf = (flags: Parameters<Command['run']>[0]) => assertDocumentId(flags.required(holder), holder);
  const create: Command = {
    name: `${prefix}:create`,
    description: `Issues an API key for the ${holder}. Prints keyId and ${kind.keyField}; the key is shown this once.`,
    flags: {
      [holder]: holderFlag,
      label: { value: 'LABEL', description: `a note on the key, e.g. ${kind.labelExample}` },
    },
    uses: { firestore: true },
    run: async (flags) => {
      const holderId = holderIdOf(flags);
      const { label } = validateBody<KioskKeyBody>('kioskKeyBody', { label: flags.get('label') ?? '' });
      await kind.assertExists(holderId);
      const { keyId, apiKey } = await kind.issueKey(holderId, label ?? '');
      await note(`Issued an API key for ${holder} ${holderId}. It is shown this once: store it in ${kind.storedIn}.`);
      await printJson({ [`${holder}Id`]: holderId, keyId, [kind.keyField]: apiKey });
    },
  };
  const revoke: Command = {
    name: `${prefix}:revoke`,
    description: `Revokes ${kind.revokes}; it stops working at once.`,
    flags: {
      [holder]: holderFlag,
      key: { value: 'KEY_ID', description: `the keyId ${create.name} printed`, required: true },
    },
    uses: { firestore: true },
    run: async (flags) => {
      const holderId = holderIdOf(flags);
      const keyId = assertDocumentId(flags.required('key'), 'key');
      if (!(await kind.revokeKey(holderId, keyId))) {
        throw new CliError(`API key ${keyId} not found for ${holder} ${holderId}`);
      }
      await print(`Revoked API key ${keyId} of ${holder} ${holderId}.`);
    },
  };
  return [create, revoke];
}
