// The tables of BENCHMARKS.md and RELIABILITY.md: each drawn from data, its columns named after the data's fields.

/** A field's name in words: `askedAgain` is "asked again". */
export const words = (/** @type {string} */ key) => key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

/** @param {string[]} header @param {unknown[][]} rows @param {(value: unknown, column: number) => string} show */
export const table = (header, rows, show) =>
  [header, header.map(() => '---'), ...rows.map((row) => row.map((value, i) => show(value, i).replaceAll('|', '\\|')))]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');
