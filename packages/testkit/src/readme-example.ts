import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Options of `runReadmeExample`. */
export interface RunReadmeExampleOptions {
  /** The heading the example is under (its first ```js or ```ts block), default `Example`. */
  heading?: string;
  /** Milliseconds before the run is killed (default 30 000). */
  timeoutMs?: number;
  /** Extra environment variables (the test's own environment is passed on). */
  env?: Record<string, string>;
}

/**
 * The code of the first ```js / ```ts block under a `## <heading>` of a README.
 * @throws Error when the README has no such heading or block.
 */
export function readmeExample(readmePath: string, heading = 'Example'): string {
  const readme = readFileSync(readmePath, 'utf8');
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const code = new RegExp(`^## ${escaped}\\s*$[\\s\\S]*?^\`\`\`(?:js|ts)\\n([\\s\\S]*?)^\`\`\``, 'm').exec(readme)?.[1];
  if (code === undefined) throw new Error(`${readmePath} has no \`\`\`js or \`\`\`ts block under "## ${heading}".`);
  return code;
}

/**
 * Runs a package README's example as written, as a reader would: plain Node (an ES module, no TypeScript
 * transform, so TypeScript-only syntax fails), from the package folder so its imports resolve to the package's
 * BUILT exports and dependencies. Check `distStaleReason(packageDir)` first.
 * @returns what it printed.
 * @throws the child's failure (its exit code, stdout and stderr on the error) when it exits non-zero or times out.
 */
export async function runReadmeExample(packageDir: string, options: RunReadmeExampleOptions = {}): Promise<{ stdout: string; stderr: string }> {
  const code = readmeExample(path.join(packageDir, 'README.md'), options.heading);
  return run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: packageDir,
    timeout: options.timeoutMs ?? 30_000,
    env: { ...process.env, ...options.env },
  });
}
