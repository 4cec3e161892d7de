import { defineConfig } from 'tsup';

// The library. The `ankole` CLI (dist/cli.js) is bundled by build-cli.mjs, after this build (which cleans dist).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
