import {
  MAX_BRAIN_PAGE_CHARS,
  MAX_BRAIN_TITLE_CHARS,
  type BrainPage,
  type BrainPageSlice,
  type BrainPageSummary,
  type ControlPlaneClient,
  type RecallResult,
} from '@core/control-plane-client';
import { activityLabel, defineWorkerTool, refusalToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { formatPage, formatPageSlice, formatRecall } from './format-brain.js';

/** What the Brain tools are built from. */
export interface BrainToolsContext {
  /** The control plane (in process or remote); only `brain` is used. */
  client: Pick<ControlPlaneClient, 'brain'>;
  /** The agent whose pages these are; every call carries it. */
  agentId: string;
  /** Only `recall` and `get_page` (workflow task turns); otherwise also `create_page`, `update_page`, `delete_page`. */
  readOnly: boolean;
}

/** What the tools put in `details`. */
export interface BrainToolDetails {
  recall?: RecallResult;
  slice?: BrainPageSlice;
  page?: BrainPage | BrainPageSummary;
  code?: string;
}

/** Characters `get_page` returns per call. */
const PAGE_WINDOW = 8000;

const recallSchema = z.object({
  query: z
    .string()
    .describe('What you are looking for, in words likely to be on the page. Supports "quoted phrases", or, and -excluded words.'),
  limit: z.number().int().min(1).max(20).optional().describe('Most pages to return, best first (default 5).'),
});
const getPageSchema = z.object({
  page: z.string().describe('The page id or its exact title (any case), e.g. from recall.'),
  offset: z.number().int().min(0).optional().describe('Where to start reading, in characters (default 0); a long page says where its next part starts.'),
});
const createSchema = z.object({
  title: z.string().describe(`A short, unique, descriptive title (one line, at most ${MAX_BRAIN_TITLE_CHARS} characters).`),
  body: z.string().describe(`The page in Markdown (at most ${MAX_BRAIN_PAGE_CHARS} characters). Write it so it can be found and understood later without this conversation.`),
});
const updateSchema = z.object({
  page: z.string().describe('The page id or its exact title (any case).'),
  title: z.string().optional().describe('A new title (omit to keep it).'),
  body: z.string().optional().describe('The new Markdown body, replacing the old one entirely (omit to keep it). Read the page first to keep what still holds.'),
});
const deleteSchema = z.object({ page: z.string().describe('The page id or its exact title (any case).') });

/**
 * Creates the Brain tools of one agent: `recall` and `get_page` (read-only, parallel) and, unless `readOnly`,
 * `create_page`, `update_page` and `delete_page` (sequential; update and delete are destructive). Brain is the
 * agent's own knowledge: Markdown pages in the control plane, found again by full-text search.
 */
export function createBrainTools(context: BrainToolsContext): AnyWorkerAgentTool[] {
  const { client, agentId } = context;
  const tools: AnyWorkerAgentTool[] = [
    defineWorkerTool<typeof recallSchema, BrainToolDetails>({
      name: 'recall',
      description:
        'Search your Brain: your own Markdown pages of knowledge, kept across turns. Returns the best-matching pages with ' +
        'snippets (matches in **bold**); read one whole with get_page. Search before answering from memory or researching again.',
      schema: recallSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: (params) => `Recalling "${activityLabel(params.query)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not recall "${activityLabel(params.query)}"` : `Recalled ${result.details?.recall?.hits.length ?? 0} page(s) for "${activityLabel(params.query)}"`,
      async execute(params) {
        try {
          const recall = await client.brain.recall({ agentId, query: params.query, limit: params.limit ?? 5 });
          return { content: formatRecall(recall), details: { recall } };
        } catch (error) {
          return refusalToolResult(error, 'search the Brain');
        }
      },
    }),
    defineWorkerTool<typeof getPageSchema, BrainToolDetails>({
      name: 'get_page',
      description: `Read one of your Brain pages by id or title. Long pages come in parts of ${PAGE_WINDOW} characters: the answer says the offset of the next part.`,
      schema: getPageSchema,
      executionMode: 'parallel',
      isReadOnly: true,
      describeActivity: (params) => `Reading page "${activityLabel(params.page)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `No page "${activityLabel(params.page)}"` : `Read page "${activityLabel(result.details?.slice?.title ?? params.page)}"`,
      async execute(params) {
        try {
          const slice = await client.brain.getPage({ agentId, page: params.page, offset: params.offset ?? 0, limit: PAGE_WINDOW });
          return { content: formatPageSlice(slice), details: { slice } };
        } catch (error) {
          return refusalToolResult(error, 'read the page');
        }
      },
    }),
  ];
  if (context.readOnly) return tools;
  tools.push(
    defineWorkerTool<typeof createSchema, BrainToolDetails>({
      name: 'create_page',
      description:
        'Save knowledge worth keeping to your Brain as a new Markdown page (facts learned, decisions, how-tos, people, sources). ' +
        'Titles are unique: to change an existing page use update_page.',
      schema: createSchema,
      executionMode: 'sequential',
      describeActivity: (params) => `Saving page "${activityLabel(params.title)}"`,
      describeCompletedActivity: (params, result) => (result.isError === true ? `Could not save page "${activityLabel(params.title)}"` : `Saved page "${activityLabel(params.title)}"`),
      async execute(params) {
        try {
          const page = await client.brain.createPage({ agentId, title: params.title, body: params.body });
          return { content: `Page saved: ${formatPage(page)}.`, details: { page } };
        } catch (error) {
          return refusalToolResult(error, 'save the page');
        }
      },
    }),
    defineWorkerTool<typeof updateSchema, BrainToolDetails>({
      name: 'update_page',
      description: 'Rename one of your Brain pages and/or replace its whole body.',
      schema: updateSchema,
      executionMode: 'sequential',
      isDestructive: true,
      describeActivity: (params) => `Updating page "${activityLabel(params.page)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not update page "${activityLabel(params.page)}"` : `Updated page "${activityLabel(result.details?.page?.title ?? params.page)}"`,
      async execute(params) {
        try {
          const page = await client.brain.updatePage({ agentId, page: params.page, title: params.title, body: params.body });
          return { content: `Page updated: ${formatPage(page)}.`, details: { page } };
        } catch (error) {
          return refusalToolResult(error, 'update the page');
        }
      },
    }),
    defineWorkerTool<typeof deleteSchema, BrainToolDetails>({
      name: 'delete_page',
      description: 'Delete one of your Brain pages for good (wrong or obsolete knowledge).',
      schema: deleteSchema,
      executionMode: 'sequential',
      isDestructive: true,
      describeActivity: (params) => `Deleting page "${activityLabel(params.page)}"`,
      describeCompletedActivity: (params, result) =>
        result.isError === true ? `Could not delete page "${activityLabel(params.page)}"` : `Deleted page "${activityLabel(result.details?.page?.title ?? params.page)}"`,
      async execute(params) {
        try {
          const page = await client.brain.deletePage({ agentId, page: params.page });
          return { content: `Page deleted: ${formatPage(page)}.`, details: { page } };
        } catch (error) {
          return refusalToolResult(error, 'delete the page');
        }
      },
    }),
  );
  return tools;
}
