import { packageTestConfig } from '../../vitest.shared';

export default packageTestConfig();
