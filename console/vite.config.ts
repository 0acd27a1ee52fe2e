import { defineConfig } from 'vite';

// Preact's JSX runtime, without a plugin: the transform only needs to know where `jsx()` comes from.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
