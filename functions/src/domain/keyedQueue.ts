/**
 * Runs work for one key at a time, in arrival order; work for different keys runs
 * concurrently. A key's entry is removed once its queue is empty, so the map only
 * holds keys with work in flight. Failed work releases the next in line like any other.
 */
export type KeyedQueue = <T>(key: string, work: () => Promise<T>) => Promise<T>;

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<void>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key);
    let release!: () => void;
    // Resolves (never rejects) once this work is over, which is after everything
    // queued before it: the next in line waits on this alone.
    const done = new Promise<void>((resolve) => (release = resolve));
    tails.set(key, done);
    try {
      if (previous) await previous;
      return await work();
    } finally {
      release();
      if (tails.get(key) === done) tails.delete(key);
    }
  };
}
