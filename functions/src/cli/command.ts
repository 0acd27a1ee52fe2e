/**
 * What a command file declares, and the errors and output every command shares.
 * The help text is built from these declarations (usage.ts): a flag exists in the
 * help because it is declared, never written a second time.
 */
import { textTable } from './table';
import type { Target } from './target';
import type { Flags, FlagSpecs } from './flags';

export interface Command {
  name: string;
  /** What it does and prints, for the help (wrapped there). */
  description: string;
  /** One line shown as is below the description. */
  example?: string;
  flags: FlagSpecs;
  /** Checked before anything is contacted: exactly one of these flags, at least one of those. */
  oneOf?: string[];
  anyOf?: string[];
  /** Which emulators the command talks to, checked first so an absent one is named. */
  uses: { firestore?: true; auth?: true };
  /** false: only calls the Auth emulator's REST API (token), so no Admin SDK app. */
  adminSdk?: false;
  emulatorOnly?: true;
  run: (flags: Flags, target: Target) => Promise<void>;
}

const writeTo = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) => stream.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
/** Results, on stdout: what a script may read. */
export const print = (text: string) => writeTo(process.stdout, text);
export const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));
/** Notes and errors, on stderr. */
export const note = (text: string) => writeTo(process.stderr, text);

/**
 * The list commands' output: `items` as JSON under --json, else a table of `header`
 * and one row per item, with the note `none` (if given) when there are no items.
 */
export async function printListing<Item>(
  flags: Flags,
  items: readonly Item[],
  header: readonly string[],
  row: (item: Item) => (string | number)[],
  none?: string,
): Promise<void> {
  if (flags.has('json')) return printJson(items);
  await print(textTable(header, items.map(row)));
  if (items.length === 0 && none) await note(none);
}
