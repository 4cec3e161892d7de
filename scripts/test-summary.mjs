// Prints one line per package and a closing "tests: N passed, N failed" line from the JSON reports
// vitest wrote (.vitest-results.json in each package). Exits non-zero when a package has no report.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const folders = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => join(group, entry.name)),
);

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
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
}
for (const folder of missing) console.log(`${folder.padEnd(28)} no test report (its tests did not run)`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
