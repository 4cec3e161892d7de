import { packageTestConfig } from '../../vitest.shared';

export default packageTestConfig({ testTimeout: 60_000, globalSetup: './vitest.global-setup.ts' });
