import { randomBytes } from 'node:crypto';

/** Returns an id shaped like the API's: the prefix, an underscore and 48 hex characters (e.g. `resp_0f3a…`). */
export function generateId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
