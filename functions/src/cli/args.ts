import { parseArgs } from 'node:util';
import type { Command } from './command';
import { GLOBAL_FLAGS } from './target';
import { UsageError } from './errors';
import { Flags, type FlagSpecs } from './flags';

export interface CommandLine {
  /** undefined when none was given; 'help' also for --help and -h. */
  command: string | undefined;
  flags: Flags;
}

type OptionTypes = Record<string, { type: 'string' | 'boolean' }>;

/**
 * Every declared flag's kind, for reading the tokens: whether `--name next` takes
 * `next` as its value must be known before it is known which command is given.
 * One flag name is therefore one kind in every command.
 */
export function optionTypes(commands: readonly Command[]): OptionTypes {
  const types: OptionTypes = {};
  for (const flags of [GLOBAL_FLAGS, ...commands.map((command) => command.flags)]) {
    for (const [name, spec] of Object.entries(flags)) {
      const type = spec.value === undefined ? 'boolean' : 'string';
      if (types[name] && types[name].type !== type) {
        throw new Error(`--${name} is declared both as a switch and with a value: one flag name, one kind`);
      }
      types[name] = { type };
    }
  }
  return types;
}

/**
 * `<command> [flags]`, global flags anywhere. node:util reads the tokens (`--flag
 * value`, `--flag=value`); the checks are ours, in order, the first problem being the
 * one reported: its strict mode would refuse `--lng -0.12` as ambiguous, and it has no
 * notion of a flag given twice or of flags that belong to one command. Any argument not
 * starting with `--` (other than -h) is a command or an unexpected argument.
 */
export function parseCommandLine(argv: string[], commands: readonly Command[]): CommandLine {
  const { tokens } = parseArgs({
    args: argv,
    options: optionTypes(commands),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let command: string | undefined;
  let known: FlagSpecs = GLOBAL_FLAGS;
  const values = new Map<string, string | true>();
  let previousIndex = -1;
  for (const token of tokens) {
    // A group of short options such as "-xh" is one argument.
    if (token.index === previousIndex) continue;
    previousIndex = token.index;
    const arg = argv[token.index];
    if (arg === '--help' || arg === '-h') return { command: 'help', flags: new Flags(values) };
    const forCommand = command === undefined ? '' : ` for ${command}`;
    if (token.kind === 'option-terminator') throw new UsageError(`unknown flag --${forCommand}`);
    if (token.kind === 'positional' || !token.rawName.startsWith('--')) {
      if (command !== undefined) throw new UsageError(`unexpected argument "${arg}"`);
      const spec = commands.find((candidate) => candidate.name === arg);
      if (!spec && arg !== 'help') throw new UsageError(`unknown command "${arg}"`);
      command = arg;
      known = { ...GLOBAL_FLAGS, ...spec?.flags };
      continue;
    }
    const { name, value, inlineValue } = token;
    if (!Object.hasOwn(known, name)) throw new UsageError(`unknown flag --${name}${forCommand}`);
    if (values.has(name)) throw new UsageError(`--${name} is given twice`);
    if (known[name].value === undefined) {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      values.set(name, true);
    } else {
      if (value === undefined || (!inlineValue && value.startsWith('--'))) {
        throw new UsageError(`--${name} needs a value`);
      }
      values.set(name, value);
    }
  }
  return { command, flags: new Flags(values) };
}

/** Checks of the given flags that need no service: required, exactly one of, at least one of. */
export function checkFlags(spec: Command, flags: Flags): void {
  for (const [name, flag] of Object.entries(spec.flags)) if (flag.required) flags.required(name);
  if (spec.oneOf) flags.oneOf(...spec.oneOf);
  if (spec.anyOf && !spec.anyOf.some((name) => flags.has(name))) {
    throw new UsageError(`${spec.name} needs at least one of ${spec.anyOf.map((name) => `--${name}`).join(', ')}`);
  }
}

/** "12" becomes 12; anything that is not plainly a number stays a string for the validators to refuse. */
export const numberOrText = (value: string): number | string =>
  /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : value;
