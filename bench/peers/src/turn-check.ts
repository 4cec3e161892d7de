// Proof that a turn did the work: every call executed once, every output back at the model.
import { makeCalls, type CallSpec } from './workload.js';

/** The scripted calls of one response size, and the counters a turn fills. */
export class TurnCheck {
  /** Precomputed calls per response size, so building a response costs every fake model the same. */
  private readonly callsBySize = new Map<number, CallSpec[]>();
  executed = 0;
  expected = 0;

  calls(count: number): CallSpec[] {
    let calls = this.callsBySize.get(count);
    if (calls === undefined) {
      calls = makeCalls(count);
      this.callsBySize.set(count, calls);
    }
    return calls;
  }

  /** Starts a turn that will carry `count` calls. */
  start(count: number): void {
    this.executed = 0;
    this.expected = count;
  }

  /** Called by the fake model before its final answer with the number of outputs it received for this turn's calls. */
  outputsReceived(framework: string, received: number): void {
    if (received !== this.expected) {
      throw new Error(`${framework}: the model received ${received} tool outputs, expected ${this.expected}`);
    }
  }

  /** Called once the turn has ended. */
  finish(framework: string): void {
    if (this.executed !== this.expected) {
      throw new Error(`${framework}: ${this.executed} tool calls executed, expected ${this.expected}`);
    }
  }
}
