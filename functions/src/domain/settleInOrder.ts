/** What became of one item of a batch: its outcome, or why it has none (an ApiError, or an unexpected failure). */
export type Settled<T> = { outcome: T } | { error: unknown };

export interface Settling<I, P, R> {
  /** One item's own checks, in the batch's order: what it throws settles that item alone. */
  prepare: (item: I) => P;
  /** Settles one group's prepared items, an answer for each in order; what it throws settles the group alike. */
  settle: (group: P[]) => Promise<Settled<R>[]>;
  /** The group an item is settled in (default: one group); the groups of a round are settled side by side. */
  groupOf?: (prepared: P) => string;
  /** The round (0, 1, ...) an item, by its place in the batch, is settled in (default: 0); one round after another. */
  roundOf?: (index: number) => number;
}

/**
 * Settles every item of a batch and answers each in its place: the one place a
 * batch is split (items that fail their own checks, groups, rounds) and its answers
 * put back in the batch's order. One item's failure never fails another outside its
 * group.
 */
export async function settleInOrder<I, P, R>(
  items: readonly I[],
  { prepare, settle, groupOf = () => '', roundOf = () => 0 }: Settling<I, P, R>,
): Promise<Settled<R>[]> {
  const settled: Settled<R>[] = new Array(items.length);
  const rounds: Map<string, { index: number; prepared: P }[]>[] = [];
  items.forEach((item, index) => {
    try {
      const prepared = prepare(item);
      const groups = (rounds[roundOf(index)] ??= new Map());
      const group = groupOf(prepared);
      const members = groups.get(group) ?? [];
      members.push({ index, prepared });
      groups.set(group, members);
    } catch (error) {
      settled[index] = { error };
    }
  });
  for (const groups of rounds.filter(Boolean)) {
    await Promise.all(
      [...groups.values()].map(async (members) => {
        const answers = await settle(members.map(({ prepared }) => prepared)).catch((error: unknown) =>
          members.map((): Settled<R> => ({ error })),
        );
        members.forEach(({ index }, n) => (settled[index] = answers[n]));
      }),
    );
  }
  return settled;
}
