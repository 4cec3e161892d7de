import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { prepareCodeBlocks } from './code-block.js';
import { createTurndown } from './create-turndown.js';
import { DEFAULT_MAX_HTML_CHARACTERS } from './max-html-characters.js';
import { readPageMetadata } from './page-metadata.js';
import { prepareMath } from './prepare-math.js';
import { stripHeavyMarkup } from './strip-heavy-markup.js';
import { stripTableMarkers } from './table-rules.js';

/** The readable Markdown of an HTML page. */
export interface HtmlMarkdown {
  title: string | undefined;
  /** The author line (meta tags, JSON-LD, or what Readability found in the article), if any. */
  byline: string | undefined;
  /** The publication time the page gives (meta tags, JSON-LD), if any. */
  publishedTime: string | undefined;
  /** The site's name (`og:site_name`, the JSON-LD publisher), if any. */
  siteName?: string;
  markdown: string;
  /** `article` when Readability found the main content, `page` when the whole body was converted. */
  extraction: 'article' | 'page';
  /** Characters of HTML left once scripts, styles and comments are cut out. */
  htmlLength: number;
  /** Set when that HTML was longer than `maxHtmlCharacters`: how many of its characters were converted. */
  convertedLength?: number;
}

/** Options of {@link htmlToMarkdown}. */
export interface HtmlToMarkdownOptions {
  /**
   * Most characters of HTML (after scripts, styles and comments are cut out) handed to the DOM parser,
   * Readability and Turndown (default 524_288). Conversion is synchronous and costs about 0.5 ms per KB,
   * so this bounds how long one page can block the event loop; the rest of a longer page is left out.
   */
  maxHtmlCharacters?: number;
}

/** Below this many characters of text, Readability's pick is not trusted and the whole body is converted. */
const MIN_ARTICLE_CHARACTERS = 200;

// Elements that never carry readable content, dropped in the whole-body fallback.
const NOISE_SELECTOR = 'script, style, noscript, template, iframe, svg, canvas, form, button, nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"]';

/**
 * Converts an HTML page to readable Markdown: Mozilla Readability picks the article on a linkedom
 * DOM (dropping navigation, ads and footers), Turndown writes it as Markdown (code blocks verbatim
 * and fenced, tables as GFM tables, MathML as TeX or text); when Readability finds no article the
 * whole body, minus navigation and scripts, is converted instead. Relative links and images are made
 * absolute against `pageUrl`. The title, byline, date and site name are read from the whole page's
 * `<head>`, `<meta>` tags and JSON-LD first; only then are the first `maxHtmlCharacters` of the HTML
 * converted (see {@link HtmlToMarkdownOptions}); `convertedLength` says when the page was cut.
 */
export function htmlToMarkdown(source: string, pageUrl: string, options: HtmlToMarkdownOptions = {}): HtmlMarkdown {
  const steps = conversionSteps(source, pageUrl, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * {@link htmlToMarkdown}, giving the event loop a turn between its stages (scan, parse, Readability,
 * Markdown), so one large page blocks other work for the longest stage instead of the whole conversion.
 */
export async function htmlToMarkdownYielding(source: string, pageUrl: string, options: HtmlToMarkdownOptions = {}): Promise<HtmlMarkdown> {
  const steps = conversionSteps(source, pageUrl, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function* conversionSteps(source: string, pageUrl: string, options: HtmlToMarkdownOptions): Generator<void, HtmlMarkdown> {
  const stripped = stripTableMarkers(stripHeavyMarkup(source));
  const metadata = readPageMetadata(stripped);
  const html = cutHtml(stripped, options.maxHtmlCharacters ?? DEFAULT_MAX_HTML_CHARACTERS);
  const size = { htmlLength: stripped.length, ...(html.length < stripped.length ? { convertedLength: html.length } : {}) };
  const siteName = metadata.siteName === undefined ? {} : { siteName: metadata.siteName };
  yield;
  const turndown = createTurndown();
  const { document } = parseHTML(html);
  const pageTitle = cleanTitle(document.title);
  prepareDocument(document, pageUrl);
  yield;
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  yield;
  if (article !== null && typeof article.content === 'string' && (article.textContent ?? '').trim().length >= MIN_ARTICLE_CHARACTERS) {
    return {
      title: metadata.title ?? cleanTitle(article.title) ?? pageTitle,
      byline: metadata.byline ?? cleanTitle(article.byline),
      publishedTime: metadata.publishedTime ?? cleanTitle(article.publishedTime),
      ...siteName,
      markdown: tidy(turndown.turndown(article.content)),
      extraction: 'article',
      ...size,
    };
  }
  // Readability changed the first DOM; convert a fresh one.
  const { document: fresh } = parseHTML(html);
  prepareDocument(fresh, pageUrl);
  for (const element of fresh.querySelectorAll(NOISE_SELECTOR)) element.remove();
  const body = fresh.body as { innerHTML?: string } | null;
  yield;
  return {
    title: metadata.title ?? pageTitle,
    byline: metadata.byline,
    publishedTime: metadata.publishedTime,
    ...siteName,
    markdown: tidy(turndown.turndown(body?.innerHTML ?? html)),
    extraction: 'page',
    ...size,
  };
}

/** What the DOM needs before Readability: absolute links, code blocks and formulas in a form that survives it. */
function prepareDocument(document: QueryableDocument, pageUrl: string): void {
  absolutiseLinks(document, pageUrl);
  prepareCodeBlocks(document);
  prepareMath(document);
}

/** The first `max` characters of `html`, ending before a tag cut in half and never inside a surrogate pair. */
function cutHtml(html: string, max: number): string {
  if (html.length <= max) return html;
  let end = Math.max(0, Math.floor(max));
  const code = html.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const openTag = html.lastIndexOf('<', end - 1);
  if (openTag !== -1) {
    const tagEnd = html.indexOf('>', openTag);
    if (tagEnd === -1 || tagEnd >= end) end = openTag;
  }
  return html.slice(0, end);
}

type QueryableDocument = ReturnType<typeof parseHTML>['document'];

function absolutiseLinks(document: QueryableDocument, pageUrl: string): void {
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (value === null || value.startsWith('#') || /^(javascript|data|mailto|tel):/i.test(value)) continue;
      try {
        element.setAttribute(attribute, new URL(value, pageUrl).href);
      } catch {
        // Keep a value that is not a URL as it is.
      }
    }
  }
}

function cleanTitle(title: string | null | undefined): string | undefined {
  const trimmed = title?.replace(/\s+/g, ' ').trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Trailing spaces and runs of blank lines removed, except inside fenced code blocks (also in lists and quotes), which stay verbatim. */
function tidy(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  // A table cell outside any table (markup the parser let through) leaves its markers behind.
  for (const line of stripTableMarkers(markdown).split('\n')) {
    if (fence !== undefined) {
      lines.push(line);
      const closing = /^[\s>]*(`{3,})\s*$/.exec(line);
      if (closing !== null && closing[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    fence = /^[\s>]*(`{3,})[^`]*$/.exec(line)?.[1];
    const trimmed = line.trimEnd();
    if (trimmed === '' && (lines.length === 0 || lines.at(-1) === '')) continue;
    lines.push(trimmed);
  }
  return lines.join('\n').trim();
}
