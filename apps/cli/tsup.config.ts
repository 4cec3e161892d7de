import { defineConfig } from 'tsup';

// The library (dist/index.js). The `ankole` command (dist/ankole.cjs, dist/cli-*.cjs) is bundled by build-cli.mjs, after this build.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  // The CLI's files stay until build-cli.mjs replaces them, so dist/cli.js is never missing while the CLI builds.
  clean: ['!cli.js', '!cli.js.map', '!cli-*', '!ankole.cjs', '!ankole.cjs.map'],
  target: 'node20',
});
