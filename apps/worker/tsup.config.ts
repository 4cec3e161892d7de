import { defineConfig } from 'tsup';

// The library and its test models (`@core/worker/testing`). The `ankole` command is apps/cli.
export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/testing.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
