/** The limits the computer tools work within. Every field has a default (see `DEFAULT_COMPUTER_LIMITS`). */
export interface ComputerLimits {
  /** Timeout of a `command` call when the model asks for none, in ms (default 120 000). */
  commandTimeoutMs: number;
  /** The longest timeout the model may ask for, in ms (default 600 000). */
  maxCommandTimeoutMs: number;
  /** How long a killed command's process group gets between SIGTERM and SIGKILL, in ms (default 2 000). */
  killGraceMs: number;
  /** Bytes of stdout and of stderr (each) shown to the model; the head and the tail are kept (default 30 000). */
  maxOutputBytes: number;
  /** Bytes of text `read_file` returns in one call (default 100 000). */
  maxReadBytes: number;
  /** Lines `read_file` returns when the model gives no `limit` (default 2 000). */
  maxReadLines: number;
  /** Characters kept of one line in `read_file` and `search_files` output (default 2 000 / 300). */
  maxLineLength: number;
  /** Largest file `read_file` and `edit_file` load, in bytes (default 20 MiB). */
  maxFileBytes: number;
  /** Largest image `read_file` returns as an image, in bytes (default 5 MiB). */
  maxImageBytes: number;
  /** Entries `list_files` returns (default 1 000). */
  maxListResults: number;
  /** Matches `search_files` returns (default 200). */
  maxSearchResults: number;
  /** Files larger than this are skipped by `search_files`, in bytes (default 2 MiB). */
  maxSearchFileBytes: number;
  /** Time one `search_files` call may spend matching, in ms; a pathological regex is stopped (default 10 000). */
  searchTimeoutMs: number;
  /** Largest content `write_file` writes, in bytes (default 10 MiB). */
  maxWriteBytes: number;
  /** Memory (with swap) every process of one sandboxed `command` may use together, in bytes (default 2 GiB; a cgroup). */
  commandMemoryBytes: number;
  /** Processes and threads one sandboxed `command` may have at once (default 512; a cgroup, else RLIMIT_NPROC). */
  commandMaxProcesses: number;
  /** CPU time each process of a sandboxed `command` may use, in seconds (default 600; RLIMIT_CPU). */
  commandCpuSeconds: number;
  /** Largest file a sandboxed `command` may write, in bytes (default 1 GiB; RLIMIT_FSIZE). */
  commandMaxFileBytes: number;
  /** Size of a sandboxed `command`'s private `/tmp`, in bytes (default 256 MiB; counted in its memory too). */
  commandTmpBytes: number;
}

/** The default limits. */
export const DEFAULT_COMPUTER_LIMITS: Readonly<ComputerLimits> = Object.freeze({
  commandTimeoutMs: 120_000,
  maxCommandTimeoutMs: 600_000,
  killGraceMs: 2_000,
  maxOutputBytes: 30_000,
  maxReadBytes: 100_000,
  maxReadLines: 2_000,
  maxLineLength: 2_000,
  maxFileBytes: 20 * 1024 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
  maxListResults: 1_000,
  maxSearchResults: 200,
  maxSearchFileBytes: 2 * 1024 * 1024,
  searchTimeoutMs: 10_000,
  maxWriteBytes: 10 * 1024 * 1024,
  commandMemoryBytes: 2 * 1024 * 1024 * 1024,
  commandMaxProcesses: 512,
  commandCpuSeconds: 600,
  commandMaxFileBytes: 1024 * 1024 * 1024,
  commandTmpBytes: 256 * 1024 * 1024,
});
