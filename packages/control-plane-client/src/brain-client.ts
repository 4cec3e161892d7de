/** A Brain page: one Markdown document of an agent's own knowledge. */
export interface BrainPage {
  id: string;
  agentId: string;
  /** Unique per agent, compared without case ("Tide pools" and "tide pools" are the same page). */
  title: string;
  /** Markdown. */
  body: string;
  /** The body's length in characters (Unicode code points). */
  size: number;
  createdAt: string;
  updatedAt: string;
}

/** A page without its body, as lists show it. */
export interface BrainPageSummary {
  id: string;
  title: string;
  /** The body's length in characters. */
  size: number;
  createdAt: string;
  updatedAt: string;
}

/** One window of a page's body (`getPage`): long pages are read in several calls. */
export interface BrainPageSlice extends BrainPageSummary {
  /** The characters from `offset` on (at most `limit` of them, cut at a line end when one is near). */
  text: string;
  /** Where `text` starts, in characters. */
  offset: number;
  /** Where the next window starts, or `null` when `text` reaches the end of the page. */
  nextOffset: number | null;
}

/** How `recall` found its hits. */
export type RecallMode =
  /**
   * Full-text search, and the best page matched every word of the query (`websearch_to_tsquery` syntax:
   * "phrases", `or`, `-word`); pages with only some of the words may follow.
   */
  | 'all-words'
  /** Full-text search: no page matched every word, so pages with any of them are ranked. */
  | 'any-word'
  /** The query had no searchable word, or none matched: words as prefixes (`kube` finds "Kubernetes"). */
  | 'prefix'
  /** Last resort: the query as a case-insensitive substring of the title or body. */
  | 'substring';

/** One page `recall` found. */
export interface RecallHit {
  id: string;
  title: string;
  /** A few fragments of the body around the matches, the matched words between `**` (Markdown bold). */
  snippet: string;
  /** Relevance (higher is better); comparable only within one result. */
  rank: number;
  size: number;
  updatedAt: string;
}

/** What `recall` returns. */
export interface RecallResult {
  query: string;
  mode: RecallMode;
  /** Best first, at most `limit`. */
  hits: RecallHit[];
}

/** A page to import (`importPages`). */
export interface ImportPageInput {
  title: string;
  body: string;
}

/** What `importPages` did. */
export interface ImportPagesResult {
  /** New titles. */
  created: number;
  /** Existing titles whose body (or title case) changed. */
  updated: number;
  /** Existing titles with the same body: not written. */
  unchanged: number;
}

/**
 * Brain pages: every call carries the agent id; an agent sees, changes and deletes only its own pages
 * (another agent's page is reported as not found). A page is named by its id or its title (`page`).
 */
export interface BrainApi {
  /** @throws ControlPlaneInputError (`page_title_taken`) when the agent already has a page with that title; `input_invalid`. */
  createPage(input: { agentId: string; title: string; body: string }): Promise<BrainPage>;
  /**
   * Replaces the title and/or the body. @throws ControlPlaneNotFoundError (`page_not_found`);
   * ControlPlaneInputError (`page_title_taken`) when renaming onto another page's title.
   */
  updatePage(input: { agentId: string; page: string; title?: string | undefined; body?: string | undefined }): Promise<BrainPage>;
  /** Deletes the page and returns what it was. @throws ControlPlaneNotFoundError */
  deletePage(input: { agentId: string; page: string }): Promise<BrainPageSummary>;
  /**
   * A window of the page's body: `limit` characters (default 8000) from `offset` (default 0), with the total
   * size and the next offset. @throws ControlPlaneNotFoundError; ControlPlaneInputError (`offset_out_of_range`).
   */
  getPage(input: { agentId: string; page: string; offset?: number | undefined; limit?: number | undefined }): Promise<BrainPageSlice>;
  /** The agent's pages by title (case-insensitive), `limit` (default 100) from `offset`, and how many there are. */
  listPages(input: { agentId: string; offset?: number | undefined; limit?: number | undefined }): Promise<{ pages: BrainPageSummary[]; total: number }>;
  /** Full-text search over the agent's pages, best first (`limit` default 5). See `RecallMode` for how a query is read. */
  recall(input: { agentId: string; query: string; limit?: number | undefined }): Promise<RecallResult>;
  /**
   * Creates or replaces pages by title (case-insensitive), in one transaction; a title given twice keeps the
   * last body. At most 1000 pages a call. @throws ControlPlaneInputError (`input_invalid`) naming the bad page.
   */
  importPages(input: { agentId: string; pages: ImportPageInput[] }): Promise<ImportPagesResult>;
}
