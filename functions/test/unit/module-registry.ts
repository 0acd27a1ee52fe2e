/**
 * Runs `load` in a fresh module registry and returns what it returned with the
 * paths of every module that registry then holds: what loading it cost, as modules.
 */
export function loadIsolated<T>(load: () => T): { exported: T; modules: string[] } {
  let exported!: T;
  let modules: string[] = [];
  jest.isolateModules(() => {
    exported = load();
    // Inside isolateModules, require.cache is the isolated registry.
    modules = Object.keys(require.cache);
  });
  return { exported, modules };
}
