// One PostgreSQL server for this package's test run: DATABASE_URL / TEST_DATABASE_URL, or a throwaway one.
export { setupTestPostgres as default } from '@core/control-plane/testing';
