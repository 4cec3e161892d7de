import { z } from 'zod';
import { decodeHtmlEntities } from './decode-html-entities.js';
import { parseJson } from './parse-json.js';

/** What a page says about itself in its `<title>`, `<meta>` tags and JSON-LD. */
export interface PageMetadata {
  title?: string;
  byline?: string;
  /** The publication time as the page gives it (ISO 8601 usually). */
  publishedTime?: string;
  siteName?: string;
}

// Bounds, so a hostile page cannot make the scan costly: tags and JSON-LD blocks read, and the size of one block.
const MAX_META_TAGS = 1000;
const MAX_JSON_LD_BLOCKS = 20;
const MAX_JSON_LD_CHARACTERS = 256 * 1024;
const MAX_VALUE_CHARACTERS = 1000;

// The schema.org types Readability reads as an article.
const ARTICLE_TYPES =
  /^(Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference)$/;

const text = z.string().optional().catch(undefined);
const person = z.union([z.string(), z.object({ name: z.string().optional().catch(undefined) })]);
const jsonLdArticleSchema = z.object({
  '@type': z.union([z.string(), z.array(z.string())]).optional().catch(undefined),
  name: text,
  headline: text,
  author: z.union([person, z.array(person)]).optional().catch(undefined),
  datePublished: text,
  publisher: z.object({ name: text }).optional().catch(undefined),
});

/**
 * Reads a page's title, byline, publication time and site name from its `<title>`, `<meta>` tags
 * (`og:`, `dc:`, `article:`, `author`, …) and schema.org JSON-LD, in Readability's order of preference,
 * by scanning the HTML text: no DOM is built, so the whole document can be read before any size cut,
 * in time linear in its length (and at most {@link MAX_META_TAGS} tags and {@link MAX_JSON_LD_BLOCKS}
 * JSON-LD blocks of 256 Ki characters are looked at).
 */
export function readPageMetadata(html: string): PageMetadata {
  const values = metaValues(html);
  const documentTitle = clean(/<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1]);
  const jsonLd = jsonLdArticle(html, documentTitle);
  const articleAuthor = values.get('article:author');
  const result: PageMetadata = {
    title: jsonLd.title ?? values.get('dc:title') ?? values.get('dcterm:title') ?? values.get('og:title') ?? values.get('title') ?? values.get('twitter:title') ?? values.get('parsely-title'),
    byline:
      jsonLd.byline ??
      values.get('dc:creator') ??
      values.get('dcterm:creator') ??
      values.get('author') ??
      values.get('parsely-author') ??
      (articleAuthor !== undefined && !/^https?:\/\//i.test(articleAuthor) ? articleAuthor : undefined),
    publishedTime: jsonLd.publishedTime ?? values.get('article:published_time') ?? values.get('parsely-pub-date'),
    siteName: jsonLd.siteName ?? values.get('og:site_name'),
  };
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as PageMetadata;
}

/** The `content` of `<meta property|name="…">` tags, by normalised key (`og:title`, `author`). */
function metaValues(html: string): Map<string, string> {
  const values = new Map<string, string>();
  const pattern = /<meta\b[^>]*>/gi;
  for (let count = 0; count < MAX_META_TAGS; count += 1) {
    const match = pattern.exec(html);
    if (match === null) break;
    const attributes = tagAttributes(match[0]);
    const content = clean(attributes.get('content'));
    if (content === undefined) continue;
    // The last of each wins, as in Readability.
    for (const key of metaKeys(attributes)) values.set(key, content);
  }
  return values;
}

function metaKeys(attributes: Map<string, string>): string[] {
  const keys: string[] = [];
  const property = attributes.get('property')?.toLowerCase().replace(/\s/g, '');
  if (property !== undefined) {
    for (const entry of property.split(/\s+|,/)) if (/^(article|dc|dcterm|og|twitter):(author|creator|description|published_time|title|site_name)$/.test(entry)) keys.push(entry);
  }
  const name = attributes.get('name')?.toLowerCase().replace(/\s/g, '').replace(/\./g, ':');
  if (name !== undefined && /^(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))[-:])?(author|creator|pub-date|description|title|site_name)$/.test(name)) keys.push(name);
  return keys;
}

function tagAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([^\s=/<>"']+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g;
  for (let match = pattern.exec(tag); match !== null; match = pattern.exec(tag)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[3] ?? match[4] ?? match[5] ?? '');
  }
  return attributes;
}

interface JsonLdMetadata {
  title?: string;
  byline?: string;
  publishedTime?: string;
  siteName?: string;
}

function jsonLdArticle(html: string, documentTitle: string | undefined): JsonLdMetadata {
  const pattern = /<script\b[^>]*application\/ld\+json[^>]*>/gi;
  for (let count = 0; count < MAX_JSON_LD_BLOCKS; count += 1) {
    const open = pattern.exec(html);
    if (open === null) break;
    const start = open.index + open[0].length;
    const end = html.indexOf('</script', start);
    if (end === -1 || end - start > MAX_JSON_LD_CHARACTERS) continue;
    const parsed = parseJson(html.slice(start, end).trim().replace(/^<!\[CDATA\[|\]\]>$/g, ''));
    if (!parsed.ok) continue;
    for (const candidate of jsonLdNodes(parsed.value)) {
      const article = jsonLdArticleSchema.safeParse(candidate);
      if (!article.success) continue;
      const types = [article.data['@type'] ?? []].flat();
      if (!types.some((type) => ARTICLE_TYPES.test(type))) continue;
      return {
        title: pickTitle(clean(article.data.name), clean(article.data.headline), documentTitle),
        byline: authorNames(article.data.author),
        publishedTime: clean(article.data.datePublished),
        siteName: clean(article.data.publisher?.name),
      };
    }
  }
  return {};
}

/** The objects of a JSON-LD value: the value, the items of an array, the items of `@graph` (the first 50). */
function jsonLdNodes(value: unknown): unknown[] {
  const nodes = Array.isArray(value) ? value : [value];
  const result: unknown[] = [];
  for (const node of nodes.slice(0, 50)) {
    if (typeof node !== 'object' || node === null) continue;
    const graph = (node as { '@graph'?: unknown })['@graph'];
    if (Array.isArray(graph)) result.push(...graph.slice(0, 50));
    else result.push(node);
  }
  return result;
}

/**
 * Of `name` and `headline` (Wikipedia's `headline` is a description), the headline only when it
 * matches the `<title>` and the name does not — Readability's rule.
 */
function pickTitle(name: string | undefined, headline: string | undefined, documentTitle: string | undefined): string | undefined {
  if (name === undefined || headline === undefined || name === headline) return name ?? headline;
  // The title without a site suffix (`Story - Site`), as Readability compares it.
  const title = (documentTitle ?? '').replace(/^(.*\S)\s+[|\-–—\\/>»]\s+.*$/, (whole, head: string) => (head.split(/\s+/).length >= 3 ? head : whole));
  return textSimilarity(headline, title) > 0.75 && textSimilarity(name, title) <= 0.75 ? headline : name;
}

/** Readability's similarity: 1 minus the share of `candidate`'s words (by length) missing from `reference`. */
function textSimilarity(candidate: string, reference: string): number {
  const referenceWords = new Set(reference.toLowerCase().split(/\W+/).filter((word) => word !== ''));
  const words = candidate.toLowerCase().split(/\W+/).filter((word) => word !== '');
  if (words.length === 0 || referenceWords.size === 0) return 0;
  const missing = words.filter((word) => !referenceWords.has(word));
  return 1 - missing.join(' ').length / words.join(' ').length;
}

function authorNames(author: z.output<typeof jsonLdArticleSchema>['author']): string | undefined {
  if (author === undefined) return undefined;
  const names = [author]
    .flat()
    .map((entry) => clean(typeof entry === 'string' ? entry : entry.name))
    .filter((name): name is string => name !== undefined);
  return names.length === 0 ? undefined : names.join(', ');
}

function clean(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = decodeHtmlEntities(value.slice(0, MAX_VALUE_CHARACTERS)).replace(/\s+/g, ' ').trim();
  return cleaned === '' ? undefined : cleaned;
}
