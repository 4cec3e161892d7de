import { defineConfig } from 'tsup';

export default defineConfig({
  // `testing` is the contract test suite (imported by test files only; it loads vitest).
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
