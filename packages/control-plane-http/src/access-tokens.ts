import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ControlPlaneInputError } from '@core/control-plane-client';

/**
 * The database calls the tokens make: `SqlDriver.query` of `@core/control-plane` (a control plane's `driver` is one;
 * its migrations create the `access_token` table).
 */
export interface TokenDatabase {
  query<TRow = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: TRow[]; rowCount: number }>;
}

/** Who a request comes from: a worker token, an agent-scoped token, or the local socket (trusted by file permissions). */
export type Principal = { kind: 'worker'; tokenId: string } | { kind: 'agent'; agentId: string; tokenId: string } | { kind: 'local' };

/** A stored token, without the token itself (only its hash is kept). */
export interface AccessTokenRecord {
  id: string;
  kind: 'worker' | 'agent';
  agentId: string | null;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The bearer tokens of the HTTP control plane, in the control plane's `access_token` table. */
export interface AccessTokens {
  /**
   * Makes a token: `worker` (claims and finishes work, and makes the calls of the turns it runs, for any agent)
   * or `agent` (only that agent's schedules, jobs, workflows and Brain). The token is returned once; only its hash is stored.
   * @throws ControlPlaneInputError for an agent token without an agent id.
   */
  create(input: { kind: 'worker' | 'agent'; agentId?: string | undefined; label?: string | undefined }): Promise<{ token: string; record: AccessTokenRecord }>;
  /** The principal a presented token stands for, or `undefined` (unknown or revoked). */
  verify(token: string): Promise<Principal | undefined>;
  /** The stored tokens, newest first. */
  list(): Promise<AccessTokenRecord[]>;
  /** Revokes a token by id; returns whether one was revoked. */
  revoke(id: string): Promise<boolean>;
}

interface TokenRow {
  id: string;
  kind: 'worker' | 'agent';
  agent_id: string | null;
  label: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const TOKEN_PREFIX = 'ank_';

/** The SHA-256 of a token, hex (tokens are 256 random bits, so no salt or slow hash is needed). */
function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function record(row: TokenRow): AccessTokenRecord {
  return { id: row.id, kind: row.kind, agentId: row.agent_id, label: row.label, createdAt: iso(row.created_at)!, revokedAt: iso(row.revoked_at) };
}

/** The access tokens in `schema` (the control plane's; its migrations create the table). */
export function createAccessTokens(options: { driver: TokenDatabase; schema: string }): AccessTokens {
  const { driver, schema } = options;
  return {
    async create(input) {
      const agentId = input.agentId?.trim();
      if (input.kind === 'agent' && (agentId === undefined || agentId === '')) {
        throw new ControlPlaneInputError('agent_required', 'An agent token needs the agent id it is for (--agent ID).', { field: 'agentId' });
      }
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const { rows } = await driver.query<TokenRow>(
        `INSERT INTO ${schema}.access_token (id, token_hash, kind, agent_id, label) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [randomUUID(), hashToken(token), input.kind, input.kind === 'agent' ? agentId : null, input.label ?? ''],
      );
      return { token, record: record(rows[0]!) };
    },
    async verify(token) {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
      const { rows } = await driver.query<TokenRow>(`SELECT * FROM ${schema}.access_token WHERE token_hash = $1 AND revoked_at IS NULL`, [hashToken(token)]);
      const row = rows[0];
      if (row === undefined) return undefined;
      return row.kind === 'agent' ? { kind: 'agent', agentId: row.agent_id!, tokenId: row.id } : { kind: 'worker', tokenId: row.id };
    },
    async list() {
      const { rows } = await driver.query<TokenRow>(`SELECT * FROM ${schema}.access_token ORDER BY created_at DESC, id`);
      return rows.map(record);
    },
    async revoke(id) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
      const { rowCount } = await driver.query(`UPDATE ${schema}.access_token SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
      return rowCount === 1;
    },
  };
}
