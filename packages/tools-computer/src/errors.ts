import { UsageError } from '@core/runtime';

/**
 * A tool call the computer tools refuse or cannot carry out: a path outside the home, a missing file,
 * an edit that does not match. `code` is stable; the message is written for the model (what was wrong,
 * where, and what to do) and is what the model sees as the tool's error output.
 */
export class ComputerToolError extends UsageError {
  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** A path that leads out of the agent's home (`..`, an absolute path elsewhere, or a symlink pointing out). */
export class PathOutsideHomeError extends ComputerToolError {
  /** The path as the model gave it. */
  readonly requestedPath: string;

  constructor(requestedPath: string, reason: string) {
    super(
      'path_outside_home',
      `Path "${requestedPath}" is outside the home folder (${reason}). Use a path relative to the home, or an absolute path inside it.`,
    );
    this.requestedPath = requestedPath;
  }
}
