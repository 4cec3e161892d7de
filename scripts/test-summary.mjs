// Prints one line per package, one line per group of skipped tests (a test file's describe block, or a lone
// test, with its title, which says why it skipped), and a closing "tests: N passed, N failed" line from the JSON
// reports vitest wrote (.vitest-results.json in each package). Exits non-zero when a package has no report.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const folders = ['packages', 'apps', 'bench'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => join(group, entry.name)),
);

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const skippedGroups = [];
for (const folder of folders) {
  const reportPath = join(root, folder, '.vitest-results.json');
  if (!existsSync(reportPath)) {
    missing.push(folder);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const packageSkipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += packageSkipped;
  console.log(`${folder.padEnd(28)} ${String(report.numPassedTests).padStart(4)} passed ${String(report.numFailedTests).padStart(3)} failed ${String(packageSkipped).padStart(3)} skipped`);
  for (const file of report.testResults ?? []) {
    // A describe block skipped whole is one line (its title says why); a test skipped on its own is one line.
    const blocks = new Map();
    for (const test of file.assertionResults ?? []) {
      const skippedTest = test.status === 'pending' || test.status === 'skipped' || test.status === 'todo';
      const block = test.ancestorTitles?.[0] ?? test.title;
      const entry = blocks.get(block) ?? { total: 0, skipped: [] };
      entry.total += 1;
      if (skippedTest) entry.skipped.push([...(test.ancestorTitles ?? []), test.title].join(' › '));
      blocks.set(block, entry);
    }
    const where = relative(root, file.name);
    for (const [block, { total, skipped }] of blocks) {
      if (skipped.length === 0) continue;
      if (skipped.length === total && total > 1) skippedGroups.push(`skipped ${total} tests in ${where}: ${block}`);
      else for (const name of skipped) skippedGroups.push(`skipped in ${where}: ${name}`);
    }
  }
}
for (const line of skippedGroups) console.log(line);
for (const folder of missing) console.log(`${folder.padEnd(28)} no test report (its tests did not run)`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
