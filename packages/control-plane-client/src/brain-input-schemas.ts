import { z } from 'zod';

/** Longest page title, in characters. */
export const MAX_BRAIN_TITLE_CHARS = 200;
/** Longest page body, in characters (a long document is several pages). */
export const MAX_BRAIN_PAGE_CHARS = 200_000;
/** Most pages one `importPages` call takes. */
export const MAX_BRAIN_IMPORT_PAGES = 1000;

const agentId = z.string().trim().min(1, 'agentId must not be empty').max(200);
const title = z
  .string()
  .trim()
  .min(1, 'title must not be empty')
  .max(MAX_BRAIN_TITLE_CHARS, `title must be at most ${MAX_BRAIN_TITLE_CHARS} characters`)
  .refine((text) => !/[\r\n]/.test(text), 'title must be one line');
const body = z
  .string()
  .max(MAX_BRAIN_PAGE_CHARS, `body must be at most ${MAX_BRAIN_PAGE_CHARS} characters (split a longer document into several pages)`);
const page = z.string().trim().min(1, 'page must not be empty (give a page id or title)').max(MAX_BRAIN_TITLE_CHARS);

/** The Brain API's input schemas: every call's payload is parsed with one of these. */
export const brainInputSchemas = {
  createPage: z.object({ agentId, title, body }),
  updatePage: z
    .object({ agentId, page, title: title.optional(), body: body.optional() })
    .refine((input) => input.title !== undefined || input.body !== undefined, { message: 'give a new title, a new body, or both' }),
  pageRef: z.object({ agentId, page }),
  getPage: z.object({
    agentId,
    page,
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(50_000).optional(),
  }),
  listPages: z.object({ agentId, offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() }),
  recall: z.object({
    agentId,
    query: z.string().trim().min(1, 'query must not be empty').max(1000),
    limit: z.number().int().min(1).max(50).optional(),
  }),
  importPages: z.object({ agentId, pages: z.array(z.object({ title, body })).max(MAX_BRAIN_IMPORT_PAGES) }),
} as const;
