import { packageTestConfig } from '../../vitest.shared';

export default packageTestConfig({ testTimeout: 30_000, globalSetup: './vitest.global-setup.ts' });
