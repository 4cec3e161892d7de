/**
 * The seccomp filter every sandboxed command runs under: a classic BPF program (what `bwrap --seccomp FD` loads),
 * built here for x86-64 and arm64. It refuses, with EPERM, what a shell command has no business doing and what
 * widens the kernel's attack surface:
 *
 * - `ioctl` TIOCSTI / TIOCLINUX (typing into a terminal the command does not own);
 * - `unshare` and `clone` with any namespace flag, `setns` (new namespaces, in which a process would be root);
 * - the mount family (`mount`, `umount2`, `pivot_root`, `open_tree`, `move_mount`, `fsopen`, `fsconfig`,
 *   `fsmount`, `fspick`, `mount_setattr`);
 * - `keyctl`, `add_key`, `request_key` (kernel keyrings are not namespaced), `bpf`, `perf_event_open`,
 *   `userfaultfd`, `io_uring_*`, `open_by_handle_at`, `init_module`, `finit_module`, `delete_module`, `kexec_*`;
 * - setuid and setgid mode bits: `chmod`, `fchmod`, `fchmodat`, `fchmodat2` with S_ISUID or S_ISGID, files
 *   created with them (`open`, `openat`, `creat` with O_CREAT or O_TMPFILE), `mknod` / `mknodat` of a device
 *   or with those bits. When the worker runs as root the sandbox user is root's own uid outside (a user
 *   namespace maps it), so a setuid file left in the home would run as root for whoever runs it later.
 *
 * `clone3` answers ENOSYS: its flags sit in memory a filter cannot read, and every libc falls back to `clone`,
 * whose flags it can. `openat2` answers ENOSYS for the same reason (its mode is in a struct). System calls of
 * another ABI (i386 through `int 0x80`, x32) are refused whole.
 */

/** A CPU architecture the filter is built for. */
export type SeccompArchitecture = 'x64' | 'arm64';

const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
const X32_SYSCALL_BIT = 0x40000000;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JGE_K = 0x35;
const JMP_JSET_K = 0x45;
const ALU_AND_K = 0x54;
const RET_K = 0x06;

/** Namespace flags of clone / unshare: NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
const NAMESPACE_FLAGS = 0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const SET_ID_BITS = 0o6000;
const FILE_TYPE_MASK = 0o170000;
const CHAR_DEVICE = 0o020000;
const BLOCK_DEVICE = 0o060000;
const CREATES_FILE = 0o100 | 0o20000000; // O_CREAT | __O_TMPFILE (same on x86-64 and arm64)

/** System call numbers: those refused outright, and those whose arguments are checked. */
interface SyscallTable {
  refused: readonly number[];
  enosys: readonly number[];
  ioctl: number;
  /** clone and unshare: flags in argument 0. */
  namespaceFlags: readonly number[];
  /** A mode argument: [syscall, argument index]. */
  modes: readonly (readonly [number, number])[];
  /** mknod-like: [syscall, mode argument index]. */
  deviceModes: readonly (readonly [number, number])[];
  /** open-like: [syscall, flags argument index, mode argument index]. */
  creates: readonly (readonly [number, number, number])[];
}

const SYSCALLS: Record<SeccompArchitecture, SyscallTable> = {
  x64: {
    // setns, mount, umount2, pivot_root, open_tree, move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr,
    // keyctl, add_key, request_key, bpf, perf_event_open, userfaultfd, io_uring_setup/enter/register,
    // open_by_handle_at, init_module, finit_module, delete_module, kexec_load, kexec_file_load
    refused: [308, 165, 166, 155, 428, 429, 430, 431, 432, 433, 442, 250, 248, 249, 321, 298, 323, 425, 426, 427, 304, 175, 313, 176, 246, 320],
    enosys: [435, 437], // clone3, openat2
    ioctl: 16,
    namespaceFlags: [56, 272], // clone, unshare
    modes: [[90, 1], [91, 1], [268, 2], [452, 2]], // chmod, fchmod, fchmodat, fchmodat2
    deviceModes: [[133, 1], [259, 2]], // mknod, mknodat
    creates: [[2, 1, 2], [257, 2, 3]], // open, openat (creat below: always creates)
  },
  arm64: {
    refused: [268, 40, 39, 41, 428, 429, 430, 431, 432, 433, 442, 219, 217, 218, 280, 241, 282, 425, 426, 427, 265, 105, 273, 106, 104, 294],
    enosys: [435, 437],
    ioctl: 29,
    namespaceFlags: [220, 97],
    modes: [[52, 1], [53, 2], [452, 2]], // fchmod, fchmodat, fchmodat2
    deviceModes: [[33, 2]], // mknodat
    creates: [[56, 2, 3]], // openat
  },
};
const X64_CREAT = 85;

type Instruction = { code: number; jt: number | string; jf: number | string; k: number } | { label: string };

const argLow = (index: number) => 16 + 8 * index; // offset of args[index]'s low 32 bits (little-endian)

/** The seccomp program for `architecture`, as the bytes `bwrap --seccomp FD` reads (struct sock_filter[]). */
export function seccompFilter(architecture: SeccompArchitecture): Buffer {
  const table = SYSCALLS[architecture];
  const program: Instruction[] = [];
  const op = (code: number, k: number, jt: number | string = 0, jf: number | string = 0) => program.push({ code, jt, jf, k });
  const label = (name: string) => program.push({ label: name });

  op(LD_W_ABS, 4); // arch
  op(JMP_JEQ_K, AUDIT_ARCH[architecture], 0, 'deny');
  op(LD_W_ABS, 0); // nr
  if (architecture === 'x64') op(JMP_JGE_K, X32_SYSCALL_BIT, 'deny', 0);
  for (const nr of table.refused) op(JMP_JEQ_K, nr, 'deny', 0);
  for (const nr of table.enosys) op(JMP_JEQ_K, nr, 'enosys', 0);
  op(JMP_JEQ_K, table.ioctl, 'ioctl', 0);
  for (const nr of table.namespaceFlags) op(JMP_JEQ_K, nr, 'flags0', 0);
  for (const [nr, index] of table.modes) op(JMP_JEQ_K, nr, `mode${index}`, 0);
  for (const [nr, index] of table.deviceModes) op(JMP_JEQ_K, nr, `device${index}`, 0);
  for (const [nr, flags, mode] of table.creates) op(JMP_JEQ_K, nr, `create${flags}_${mode}`, 0);
  if (architecture === 'x64') op(JMP_JEQ_K, X64_CREAT, 'mode1', 0);
  op(RET_K, RET_ALLOW);

  label('ioctl');
  op(LD_W_ABS, argLow(1));
  op(JMP_JEQ_K, TIOCSTI, 'deny', 0);
  op(JMP_JEQ_K, TIOCLINUX, 'deny', 'allow');

  label('flags0');
  op(LD_W_ABS, argLow(0));
  op(JMP_JSET_K, NAMESPACE_FLAGS, 'deny', 'allow');

  // Before the mode checks they jump to.
  for (const [, flags, mode] of table.creates) {
    label(`create${flags}_${mode}`);
    op(LD_W_ABS, argLow(flags));
    op(JMP_JSET_K, CREATES_FILE, `mode${mode}`, 'allow');
  }
  const modeIndexes = new Set([...table.modes.map(([, index]) => index), ...(architecture === 'x64' ? [1] : []), ...table.creates.map(([, , mode]) => mode)]);
  for (const index of modeIndexes) {
    label(`mode${index}`);
    op(LD_W_ABS, argLow(index));
    op(JMP_JSET_K, SET_ID_BITS, 'deny', 'allow');
  }
  for (const [, index] of table.deviceModes) {
    label(`device${index}`);
    op(LD_W_ABS, argLow(index));
    op(JMP_JSET_K, SET_ID_BITS, 'deny', 0);
    op(ALU_AND_K, FILE_TYPE_MASK);
    op(JMP_JEQ_K, CHAR_DEVICE, 'deny', 0);
    op(JMP_JEQ_K, BLOCK_DEVICE, 'deny', 'allow');
  }
  // The verdicts last: classic BPF jumps only forward.
  label('allow');
  op(RET_K, RET_ALLOW);
  label('deny');
  op(RET_K, RET_ERRNO | EPERM);
  label('enosys');
  op(RET_K, RET_ERRNO | ENOSYS);
  return assemble(program);
}

/** Resolves labels to relative jumps and encodes the instructions (8 bytes each, little-endian). */
function assemble(program: Instruction[]): Buffer {
  const positions = new Map<string, number>();
  const instructions: Exclude<Instruction, { label: string }>[] = [];
  for (const entry of program) {
    if ('label' in entry) positions.set(entry.label, instructions.length);
    else instructions.push(entry);
  }
  const buffer = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    const offset = (target: number | string): number => {
      if (typeof target === 'number') return target;
      const position = positions.get(target);
      if (position === undefined) throw new Error(`seccomp filter: no label ${target}`);
      const jump = position - index - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp filter: jump to ${target} out of range (${jump})`);
      return jump;
    };
    buffer.writeUInt16LE(instruction.code, index * 8);
    buffer.writeUInt8(offset(instruction.jt), index * 8 + 2);
    buffer.writeUInt8(offset(instruction.jf), index * 8 + 3);
    buffer.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return buffer;
}

/** The filter's architecture for this process (`process.arch`), or `undefined` where none is built. */
export function seccompArchitecture(arch: string = process.arch): SeccompArchitecture | undefined {
  return arch === 'x64' || arch === 'arm64' ? arch : undefined;
}
