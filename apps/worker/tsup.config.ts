import { defineConfig } from 'tsup';

// The library. The `ankole` CLI (dist/cli.js, dist/cli-*.js) is bundled by build-cli.mjs, after this build.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  // The CLI's files stay until build-cli.mjs replaces them, so dist/cli.js is never missing while the worker builds.
  clean: ['!cli.js', '!cli.js.map', '!cli-*', '!ankole.cjs', '!ankole.cjs.map'],
  target: 'node20',
});
