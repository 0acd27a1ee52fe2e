import { parseCommandLine, optionTypes } from '../../src/cli/args';
import { type Command } from '../../src/cli/command';
import { UsageError } from '../../src/cli/errors';

const command = (name: string, flags: Command['flags']): Command => ({
  name,
  description: name,
  flags,
  uses: {},
  run: async () => undefined,
});

const place = command('place', {
  lat: { value: 'LATITUDE', description: 'degrees' },
  lng: { value: 'LONGITUDE', description: 'degrees' },
  json: { description: 'as JSON' },
});

describe('parseCommandLine', () => {
  test('reads --flag value and --flag=value, a negative number being a value', () => {
    const { command: name, flags } = parseCommandLine(['place', '--lat=51.5', '--lng', '-0.12', '--json'], [place]);
    expect(name).toBe('place');
    expect([flags.get('lat'), flags.get('lng'), flags.has('json')]).toEqual(['51.5', '-0.12', true]);
  });

  test('takes the global flags before and after the command', () => {
    const { flags } = parseCommandLine(['--project', 'p', 'place', '--emulator'], [place]);
    expect([flags.get('project'), flags.has('emulator')]).toEqual(['p', true]);
  });

  test.each([[['-h']], [['--help']], [['place', '--lat', '1', '--help']], [['help']]])('%j is help', (argv) => {
    expect(parseCommandLine(argv, [place]).command).toBe('help');
  });

  test.each([
    [['--lat', '1', 'place'], 'unknown flag --lat'],
    [['place', '--lng'], '--lng needs a value'],
    [['place', '--lat', '--json'], '--lat needs a value'],
    [['place', '--json', '--json'], '--json is given twice'],
    [['help', '--json'], 'unknown flag --json for help'],
    [['place', '-x'], 'unexpected argument "-x"'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseCommandLine(argv, [place])).toThrow(new UsageError(message));
  });
});

describe('optionTypes', () => {
  test('refuses one flag name declared as a switch in one command and with a value in another', () => {
    const other = command('other', { json: { value: 'FILE', description: 'a file' } });
    expect(() => optionTypes([place, other])).toThrow('--json is declared both as a switch and with a value');
  });
});
