/** Flags: as a command declares them (for parsing and the help) and as a command line gives them. */
import { UsageError } from './errors';

/** A flag as the help shows it: `--lat LATITUDE  description`. */
export interface FlagSpec {
  /** The value's placeholder (`--lat LATITUDE`); absent for a switch that takes no value (`--json`). */
  value?: string;
  /** One line for the help. */
  description: string;
  required?: true;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** A flag that gives one field of a request body: declared once, for the help and for the body. */
export interface BodyFlag extends FlagSpec {
  field: string;
  /** The text as the field takes it (default: as given); the body's schema then judges the value. */
  read?: (value: string) => unknown;
}

/**
 * The body of the flags given, each under its field (an absent one left out, so the
 * schema takes its default or refuses it, as the API does with its body).
 */
export function bodyOf(table: Readonly<Record<string, BodyFlag>>, flags: Flags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, { field, read, required }] of Object.entries(table)) {
    const value = required ? flags.required(name) : flags.get(name);
    if (value !== undefined) body[field] = read ? read(value) : value;
  }
  return body;
}

/** The flags given on the command line, by name; a switch reads as present or not. */
export class Flags {
  constructor(private readonly values: ReadonlyMap<string, string | true>) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  get(name: string): string | undefined {
    const value = this.values.get(name);
    return typeof value === 'string' ? value : undefined;
  }

  required(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new UsageError(`--${name} is required`);
    return value;
  }

  /** Exactly one of the given flags. */
  oneOf(...names: string[]): { name: string; value: string } {
    const given = names.filter((name) => this.has(name));
    if (given.length !== 1) throw new UsageError(`give exactly one of ${names.map((n) => `--${n}`).join(' or ')}`);
    return { name: given[0], value: this.required(given[0]) };
  }
}
