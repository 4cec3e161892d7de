import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their sources. Not through the "source" condition as in the other packages:
// vitest hands SSR conditions to Node as --conditions, and eventsource (a dependency of mcporter's MCP SDK)
// publishes TypeScript under "source", which Node cannot load.
const packages = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  resolve: {
    conditions: ['source'],
    alias: [{ find: /^@core\/([a-z-]+)$/, replacement: `${packages}$1/src/index.ts` }],
  },
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
