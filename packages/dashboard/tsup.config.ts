import { defineConfig } from 'tsup';

// The server side only: the web app itself (public/) is plain ES modules and CSS, shipped as written.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
