import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createBraveSearchProvider } from './brave-search-provider.js';
import { normaliseDate } from './normalise-date.js';

let server: LocalServer | undefined;
const savedZone = process.env.TZ;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (savedZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedZone;
});

// Vitest runs each test file in its own child process; Node applies a new process.env.TZ to every Date built after it.
function inTimeZone<T>(zone: string, run: () => T): T {
  process.env.TZ = zone;
  return run();
}

describe('normaliseDate', () => {
  test('shortens timestamps to the UTC date and keeps human dates', () => {
    expect(normaliseDate('2025-01-15T10:20:00Z')).toBe('2025-01-15');
    expect(normaliseDate('2025-01-15T23:30:00-08:00')).toBe('2025-01-16');
    expect(normaliseDate('2025-01-15T01:30:00.123456+0900')).toBe('2025-01-14');
    expect(normaliseDate('2025-01-15')).toBe('2025-01-15');
    expect(normaliseDate('Wed, 15 Jan 2025 23:30:00 GMT')).toBe('2025-01-15');
    expect(normaliseDate('3 days ago')).toBe('3 days ago');
    expect(normaliseDate('July 25, 2024')).toBe('July 25, 2024');
    expect(normaliseDate('2025-02-30T10:00:00')).toBe('2025-02-30T10:00:00');
    expect(normaliseDate(null)).toBeUndefined();
    expect(normaliseDate('  ')).toBeUndefined();
  });

  test('reads a time without an offset as UTC, whatever the process time zone', () => {
    const values = ['2025-01-15T23:30:00', '2025-01-15T00:30:00', '2025-01-15 23:59:59.999', 'Wed, 15 Jan 2025 23:30:00'];
    const tokyo = inTimeZone('Asia/Tokyo', () => ({ offset: new Date(2025, 0, 15).getTimezoneOffset(), dates: values.map(normaliseDate) }));
    const losAngeles = inTimeZone('America/Los_Angeles', () => ({ offset: new Date(2025, 0, 15).getTimezoneOffset(), dates: values.map(normaliseDate) }));

    // The zone switch took effect (local midnight is 9 h ahead of UTC in Tokyo, 8 h behind in Los Angeles)...
    expect([tokyo.offset, losAngeles.offset]).toEqual([-540, 480]);
    // ...and the dates did not move with it.
    expect(tokyo.dates).toEqual(['2025-01-15', '2025-01-15', '2025-01-15', '2025-01-15']);
    expect(losAngeles.dates).toEqual(tokyo.dates);
  });

  test('Brave page_age without an offset gives the same date under TZ=Asia/Tokyo and TZ=America/Los_Angeles', async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(response, 200, {
        type: 'search',
        web: {
          type: 'search',
          results: [
            // Brave's own `age` for this page_age is the UTC date: "April 4, 2024".
            { title: 'Late evening', url: 'https://a.example/', description: 'x', page_age: '2024-04-04T23:04:00', age: 'April 4, 2024' },
            { title: 'Just after midnight', url: 'https://b.example/', description: 'y', page_age: '2024-07-25T00:00:00', age: 'July 25, 2024' },
          ],
        },
      }),
    );
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin });
    const search = async (): Promise<Array<string | undefined>> => (await provider.search('q', { count: 2, signal: AbortSignal.timeout(10_000) })).map((result) => result.published);

    process.env.TZ = 'Asia/Tokyo';
    const inTokyo = await search();
    process.env.TZ = 'America/Los_Angeles';
    const inLosAngeles = await search();

    expect(inTokyo).toEqual(['2024-04-04', '2024-07-25']);
    expect(inLosAngeles).toEqual(inTokyo);
  });
});
