import type { AgentEvent, AgentLoopResult } from '@core/runtime';

/** What the CLI knows when a turn starts. */
export interface TurnHeader {
  /** The first line: which model runs (says so plainly for the offline demo). */
  notice: string;
  offlineDemo: boolean;
  model: string;
  home: string;
  agent: string;
  /** How many tools the turn has. */
  tools: number;
  /** Where schedules and jobs are kept, when a control plane is bound. */
  controlPlane?: string;
  /** How the agent's commands run: `commands sandboxed (no network)`, `commands NOT sandboxed (--unsandboxed-commands)`, … */
  commands?: string;
  /** The conversation the turn belongs to (`ankole run --continue`, `--resume ID`), and which turn of it this is. */
  conversation?: { id: string; turn: number };
}

/** The signals that stop a turn: Ctrl-C (`SIGINT`) or `SIGTERM`. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** How a turn ended, for the closing summary. */
export interface TurnSummary {
  outcome: AgentLoopResult;
  durationMs: number;
  /** Ctrl-C or SIGTERM ended it. */
  interrupted: boolean;
  /** Which signal ended it (Ctrl-C when left out). */
  signal?: StopSignal;
  exitCode: number;
  /** The one-sentence failure, when the turn failed. */
  failure?: string;
}

/** Shows a turn as it happens: on a terminal, piped as plain lines, or as JSON lines. */
export interface TurnRenderer {
  start(header: TurnHeader): void;
  warning(message: string): void;
  event(event: AgentEvent): void;
  /** Ctrl-C was pressed (or SIGTERM came): the turn is being aborted. */
  interrupted(signal?: StopSignal): void;
  finish(summary: TurnSummary): void;
  /** The process leaves at once (a second Ctrl-C): put the terminal back (live lines gone, cursor shown). */
  release(): void;
}
