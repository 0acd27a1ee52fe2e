import { createKeyedQueue } from '../../src/domain/keyedQueue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Jobs that log their start and their end a pause later, so the log shows whether they overlapped. */
function loggedJobs() {
  const events: string[] = [];
  const job = (name: string) => async () => {
    events.push(`${name} start`);
    await tick();
    await tick();
    events.push(`${name} end`);
    return name;
  };
  return { events, job };
}

describe('createKeyedQueue', () => {
  it('runs work for one key one at a time, in arrival order', async () => {
    const run = createKeyedQueue();
    const { events, job } = loggedJobs();
    const results = await Promise.all([run('u', job('a')), run('u', job('b')), run('u', job('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs work for different keys concurrently', async () => {
    const run = createKeyedQueue();
    const { events, job } = loggedJobs();
    await Promise.all([run('u1', job('a')), run('u2', job('b'))]);
    expect(events.slice(0, 2)).toEqual(['a start', 'b start']);
  });

  it('lets the next in line run after a failure, and passes the failure on', async () => {
    const run = createKeyedQueue();
    const failing = run('u', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = run('u', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('starts at once for a key whose queue has drained', async () => {
    const run = createKeyedQueue();
    await run('u', async () => undefined);
    let started = false;
    const pending = run('u', async () => {
      started = true;
    });
    expect(started).toBe(true);
    await pending;
  });
});
