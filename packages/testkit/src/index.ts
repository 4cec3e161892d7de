// Filled in by the testkit work: startTestModelServer and the reply builders.
export {};
