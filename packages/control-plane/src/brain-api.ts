import { randomUUID } from 'node:crypto';
import {
  brainInputSchemas,
  ControlPlaneInputError,
  ControlPlaneNotFoundError,
  isUuid,
  parseInput,
  type BrainApi,
  type BrainPage,
  type BrainPageSummary,
} from '@core/control-plane-client';
import { brainPage, brainPageSummary, pageSlice, type BrainPageRow } from './brain-records.js';
import { recallPages } from './brain-recall.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** What the Brain API needs. */
export interface BrainApiOptions {
  driver: SqlDriver;
  schema: string;
}

const SUMMARY_COLUMNS = 'id, agent_id, title, char_length(body) AS size, created_at, updated_at';
const FULL_COLUMNS = `${SUMMARY_COLUMNS}, body`;

/** Brain pages in the control plane's `brain_page` table, scoped to one agent per call. */
export function createBrainApi(options: BrainApiOptions): BrainApi {
  const { driver, schema } = options;
  const table = `${schema}.brain_page`;

  /** The agent's page by id, else by title (case-insensitive). */
  const findPage = async (executor: SqlExecutor, agentId: string, page: string, columns: string): Promise<BrainPageRow> => {
    const byId = isUuid(page);
    const { rows } = await executor.query<BrainPageRow>(
      `SELECT ${columns} FROM ${table} WHERE agent_id = $1 AND (lower(title) = lower($2) ${byId ? 'OR id = $3::uuid' : ''})
       ORDER BY ${byId ? '(id = $3::uuid) DESC' : 'id'} LIMIT 1`,
      byId ? [agentId, page, page] : [agentId, page],
    );
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('page', page);
    return rows[0];
  };

  const titleTaken = (title: string) =>
    new ControlPlaneInputError(
      'page_title_taken',
      `A Brain page titled "${title}" already exists (titles are unique, without case). Update that page, or choose another title.`,
      { field: 'title' },
    );

  return {
    async createPage(input): Promise<BrainPage> {
      const { agentId, title, body } = parseInput(brainInputSchemas.createPage, input, 'brain.createPage');
      const { rows } = await driver.query<BrainPageRow>(
        `INSERT INTO ${table} (id, agent_id, title, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, lower(title)) DO NOTHING RETURNING ${FULL_COLUMNS}`,
        [randomUUID(), agentId, title, body],
      );
      if (rows[0] === undefined) throw titleTaken(title);
      return brainPage(rows[0]);
    },

    async updatePage(input): Promise<BrainPage> {
      const { agentId, page, title, body } = parseInput(brainInputSchemas.updatePage, input, 'brain.updatePage');
      return driver.transaction(async (transaction) => {
        const current = await findPage(transaction, agentId, page, 'id');
        if (title !== undefined) {
          const { rows: clashes } = await transaction.query(`SELECT 1 FROM ${table} WHERE agent_id = $1 AND lower(title) = lower($2) AND id <> $3`, [
            agentId,
            title,
            current.id,
          ]);
          if (clashes.length > 0) throw titleTaken(title);
        }
        try {
          const { rows } = await transaction.query<BrainPageRow>(
            `UPDATE ${table} SET title = coalesce($2, title), body = coalesce($3, body), updated_at = now()
             WHERE id = $1 RETURNING ${FULL_COLUMNS}`,
            [current.id, title ?? null, body ?? null],
          );
          return brainPage(rows[0]!);
        } catch (error) {
          // Another writer took the title between the check and the update.
          if ((error as { code?: unknown }).code === '23505' && title !== undefined) throw titleTaken(title);
          throw error;
        }
      });
    },

    async deletePage(input): Promise<BrainPageSummary> {
      const { agentId, page } = parseInput(brainInputSchemas.pageRef, input, 'brain.deletePage');
      return driver.transaction(async (transaction) => {
        const current = await findPage(transaction, agentId, page, 'id');
        const { rows } = await transaction.query<BrainPageRow>(`DELETE FROM ${table} WHERE id = $1 RETURNING ${SUMMARY_COLUMNS}`, [current.id]);
        return brainPageSummary(rows[0]!);
      });
    },

    async getPage(input) {
      const { agentId, page, offset, limit } = parseInput(brainInputSchemas.getPage, input, 'brain.getPage');
      const row = await findPage(driver, agentId, page, FULL_COLUMNS);
      return pageSlice(row, offset ?? 0, limit ?? 8000);
    },

    async listPages(input) {
      const { agentId, offset, limit } = parseInput(brainInputSchemas.listPages, input, 'brain.listPages');
      const { rows } = await driver.query<BrainPageRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM ${table} WHERE agent_id = $1 ORDER BY lower(title), id LIMIT $2 OFFSET $3`,
        [agentId, limit ?? 100, offset ?? 0],
      );
      const { rows: counted } = await driver.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} WHERE agent_id = $1`, [agentId]);
      return { pages: rows.map(brainPageSummary), total: Number(counted[0]?.total ?? 0) };
    },

    async recall(input) {
      const { agentId, query, limit } = parseInput(brainInputSchemas.recall, input, 'brain.recall');
      return recallPages(driver, { table, agentId, query, limit: limit ?? 5 });
    },

    async importPages(input) {
      const { agentId, pages } = parseInput(brainInputSchemas.importPages, input, 'brain.importPages');
      if (pages.length === 0) return { created: 0, updated: 0, unchanged: 0 };
      // One statement: the last body of each title (case-insensitive) is inserted, or replaces a different one.
      const { rows } = await driver.query<{ total: number; created: number; updated: number }>(
        `WITH input AS (
           SELECT DISTINCT ON (lower(title)) id, title, body
           FROM unnest($2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS given (id, title, body, position)
           ORDER BY lower(title), position DESC
         ), written AS (
           INSERT INTO ${table} AS page (id, agent_id, title, body)
           SELECT id, $1, title, body FROM input
           ON CONFLICT (agent_id, lower(title)) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()
           WHERE page.title IS DISTINCT FROM EXCLUDED.title OR page.body IS DISTINCT FROM EXCLUDED.body
           RETURNING (xmax = 0) AS inserted
         )
         SELECT (SELECT count(*) FROM input)::int AS total,
                (count(*) FILTER (WHERE inserted))::int AS created,
                (count(*) FILTER (WHERE NOT inserted))::int AS updated
         FROM written`,
        [agentId, pages.map(() => randomUUID()), pages.map((page) => page.title), pages.map((page) => page.body)],
      );
      const { total, created, updated } = rows[0]!;
      return { created: Number(created), updated: Number(updated), unchanged: Number(total) - Number(created) - Number(updated) };
    },
  };
}
