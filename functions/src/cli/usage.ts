/** The help text, built from the commands' and the global flags' declarations. */
import type { Command } from './command';
import { GLOBAL_FLAGS } from './target';
import type { FlagSpecs } from './flags';

/** What the help shows of a command. */
type HelpEntry = Pick<Command, 'name' | 'description' | 'example' | 'flags' | 'oneOf'>;

const WIDTH = 96;
const COMMAND_INDENT = '  ';
const TEXT_INDENT = '      ';
const FLAG_INDENT = '        ';

/** `units` joined by spaces into lines of at most WIDTH characters; a unit is never split. */
function wrap(units: string[], first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const unit of units) {
    if (!empty && line.length + 1 + unit.length > WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? unit : ` ${unit}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const words = (text: string) => text.split(' ');
const flagLabel = (flags: FlagSpecs, name: string) =>
  flags[name].value === undefined ? `--${name}` : `--${name} ${flags[name].value}`;

/** `kiosk:upsert --id ID ... [--hours HOURS]`: required flags, then one of a group, then the optional ones. */
function synopsis(command: HelpEntry): string[] {
  const { flags, oneOf = [] } = command;
  const names = Object.keys(flags);
  const units = [
    command.name,
    ...names.filter((name) => flags[name].required).map((name) => flagLabel(flags, name)),
    ...(oneOf.length > 0 ? [`(${oneOf.map((name) => flagLabel(flags, name)).join(' | ')})`] : []),
    ...names
      .filter((name) => !flags[name].required && !oneOf.includes(name))
      .map((name) => `[${flagLabel(flags, name)}]`),
  ];
  return wrap(units, COMMAND_INDENT, ' '.repeat(COMMAND_INDENT.length + command.name.length + 1));
}

function flagTable(flags: FlagSpecs, indent: string, labelWidth: number): string[] {
  return Object.keys(flags).flatMap((name) =>
    wrap(
      words(flags[name].description),
      `${indent}${flagLabel(flags, name).padEnd(labelWidth)}  `,
      ' '.repeat(indent.length + labelWidth + 2),
    ),
  );
}

export function usageText(commands: readonly Command[]): string {
  const labelWidth = Math.max(
    ...[GLOBAL_FLAGS, ...commands.map((command) => command.flags)].flatMap((flags) =>
      Object.keys(flags).map((name) => flagLabel(flags, name).length),
    ),
  );
  const help: HelpEntry = { name: 'help', description: 'This text (also -h or --help).', flags: {} };
  const sections = [...commands, help].flatMap((command) => [
    ...synopsis(command),
    ...wrap(words(command.description), TEXT_INDENT, TEXT_INDENT),
    ...(command.example ? [`${TEXT_INDENT}${command.example}`] : []),
    ...flagTable(command.flags, FLAG_INDENT, labelWidth),
  ]);
  return [
    'Kiosk Rewards operator CLI',
    '',
    `Usage: npm run admin -- <command> [flags] [${Object.keys(GLOBAL_FLAGS)
      .map((name) => flagLabel(GLOBAL_FLAGS, name))
      .join(' | ')}]`,
    '',
    'Where it works (flags every command takes):',
    ...flagTable(GLOBAL_FLAGS, COMMAND_INDENT, labelWidth),
    '',
    'Commands:',
    ...sections,
    '',
  ].join('\n');
}
