import { fileURLToPath } from 'node:url';
import { packageTestConfig } from '../../vitest.shared';

// The control plane's client test suites run here a second time, over HTTP: the module through which they reach
// their control plane (packages/control-plane/src/__fixtures__/client-transport.ts) is swapped for the HTTP one.
const httpTransport = fileURLToPath(new URL('./src/__fixtures__/http-transport.ts', import.meta.url));
const alias = [{ find: /^\.\/__fixtures__\/client-transport\.js$/, replacement: httpTransport }];

export default packageTestConfig({ testTimeout: 60_000, globalSetup: './vitest.global-setup.ts', alias });
