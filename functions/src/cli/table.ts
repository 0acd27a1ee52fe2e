/** A plain-text table for a terminal: a header line, then one line per row; numbers right-aligned. */
export function textTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: readonly (string | number)[]) =>
    cells
      .map((cell, column) =>
        typeof cell === 'number' ? String(cell).padStart(widths[column]) : cell.padEnd(widths[column]),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
