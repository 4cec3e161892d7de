/** Options every command that has them accepts before its name too (`ankole --home DIR run …`). */
export const GLOBAL_OPTIONS: readonly string[] = ['--home', '--agent', '--data-dir', '--database-url', '--control-plane', '--token'];

/**
 * Moves the global options given before the command to just after it, so `ankole --agent ops jobs list` is read as
 * `ankole jobs --agent ops list`. Each takes a value (`--home DIR` or `--home=DIR`). Anything else before the command
 * is left where it is (the command name is then whatever comes first, as before).
 */
export function hoistGlobalOptions(argv: readonly string[]): string[] {
  const hoisted: string[] = [];
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index]!;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!GLOBAL_OPTIONS.includes(name)) break;
    if (arg.includes('=')) {
      hoisted.push(arg);
      index += 1;
    } else {
      if (index + 1 >= argv.length) break;
      hoisted.push(arg, argv[index + 1]!);
      index += 2;
    }
  }
  if (hoisted.length === 0 || index >= argv.length) return [...argv];
  return [argv[index]!, ...hoisted, ...argv.slice(index + 1)];
}
