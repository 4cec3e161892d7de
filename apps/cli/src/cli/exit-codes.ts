/** Exit codes the CLI uses. */
export const EXIT_CODES = Object.freeze({
  ok: 0,
  /** The turn ran but failed (model endpoint error, step limit, cut-off response). */
  failure: 1,
  /** The command line was wrong (unknown flag, missing value, bad home). */
  usage: 2,
  /** Interrupted by Ctrl-C (128 + SIGINT). */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + SIGTERM). */
  terminated: 143,
});
