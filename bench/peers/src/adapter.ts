// What each framework's adapter offers the benchmark.

/** One framework, set up with the workload's 10 tools (and 100 for collection) and an in-process fake model. */
export interface Adapter {
  /** Short name printed in the tables. */
  readonly name: string;
  /**
   * Runs one whole turn: the fake model answers with `calls` function calls (0: with the final text at once),
   * then, once it has received every output, with the final text. Throws when a call was not executed or an
   * output did not reach the model.
   */
  runTurn(calls: number): Promise<void>;
  /** Builds the provider-facing tools payload of 100 tools as on a later turn (the first was done at setup). */
  collectTools(): unknown;
  /**
   * The same, handed a new array (or record) of the same tool objects each time, as a caller that assembles its
   * tool list per turn does. Absent where the framework keeps the tools itself (@openai/agents: on the Agent).
   */
  collectToolsFromNewArray?(): unknown;
  /** Validates the 207-byte argument string of `tool_0` as the framework does for a call; throws when invalid. */
  validateArguments(): unknown;
  /** Called after a batch of this framework's turns (e.g. to switch off a process-wide hook it enabled). */
  afterBatch?(): void;
}
