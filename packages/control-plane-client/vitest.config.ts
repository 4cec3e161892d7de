import { packageTestConfig } from '../../vitest.shared';

export default packageTestConfig({ testTimeout: 60_000 });
