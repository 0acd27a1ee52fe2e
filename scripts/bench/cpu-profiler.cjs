// Preloaded (node --require) into the instances of the bench's CPU breakdown: SIGUSR2
// starts V8's sampling profiler, the next SIGUSR2 writes the profile to
// $BENCH_CPU_PROFILE_DIR/$BENCH_CPU_PROFILE_NAME-<n>.cpuprofile, so start-up and warm-up stay out of it.
const { renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Session } = require('node:inspector');

const session = new Session();
session.connect();
let profiling = false;
let written = 0;

process.on('SIGUSR2', () => {
  if (!profiling) {
    profiling = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
    );
    return;
  }
  session.post('Profiler.stop', (error, result) => {
    profiling = false;
    const file = join(
      process.env.BENCH_CPU_PROFILE_DIR ?? '.',
      `${process.env.BENCH_CPU_PROFILE_NAME}-${++written}.cpuprofile`,
    );
    // Written aside and renamed, so the bench never reads half a file.
    writeFileSync(`${file}.partial`, JSON.stringify(error ? { error: String(error) } : result.profile));
    renameSync(`${file}.partial`, file);
  });
});
