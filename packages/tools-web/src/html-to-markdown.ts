import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { stripHeavyMarkup } from './strip-heavy-markup.js';

/** The readable Markdown of an HTML page. */
export interface HtmlMarkdown {
  title: string | undefined;
  /** The author line Readability found, if any. */
  byline: string | undefined;
  /** The publication time Readability found (from page metadata), if any. */
  publishedTime: string | undefined;
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

/** The default of {@link HtmlToMarkdownOptions.maxHtmlCharacters}: 512 Ki characters. */
export const DEFAULT_MAX_HTML_CHARACTERS = 512 * 1024;

/** Below this many characters of text, Readability's pick is not trusted and the whole body is converted. */
const MIN_ARTICLE_CHARACTERS = 200;

// Elements that never carry readable content, dropped in the whole-body fallback.
const NOISE_SELECTOR = 'script, style, noscript, template, iframe, svg, canvas, form, button, nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"]';

/**
 * Converts an HTML page to readable Markdown: Mozilla Readability picks the article on a linkedom
 * DOM (dropping navigation, ads and footers), Turndown writes it as Markdown; when Readability finds
 * no article the whole body, minus navigation and scripts, is converted instead. Relative links and
 * images are made absolute against `pageUrl`. Only the first `maxHtmlCharacters` of the HTML are
 * converted (see {@link HtmlToMarkdownOptions}); `convertedLength` says when the page was cut.
 */
export function htmlToMarkdown(source: string, pageUrl: string, options: HtmlToMarkdownOptions = {}): HtmlMarkdown {
  const stripped = stripHeavyMarkup(source);
  const html = cutHtml(stripped, options.maxHtmlCharacters ?? DEFAULT_MAX_HTML_CHARACTERS);
  const size = { htmlLength: stripped.length, ...(html.length < stripped.length ? { convertedLength: html.length } : {}) };
  const turndown = createTurndown();
  const { document } = parseHTML(html);
  const pageTitle = cleanTitle(document.title);
  absolutiseLinks(document, pageUrl);
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  if (article !== null && typeof article.content === 'string' && (article.textContent ?? '').trim().length >= MIN_ARTICLE_CHARACTERS) {
    return {
      title: cleanTitle(article.title) ?? pageTitle,
      byline: cleanTitle(article.byline),
      publishedTime: cleanTitle(article.publishedTime),
      markdown: tidy(turndown.turndown(article.content)),
      extraction: 'article',
      ...size,
    };
  }
  // Readability changed the first DOM; convert a fresh one.
  const { document: fresh } = parseHTML(html);
  absolutiseLinks(fresh, pageUrl);
  for (const element of fresh.querySelectorAll(NOISE_SELECTOR)) element.remove();
  const body = fresh.body as { innerHTML?: string } | null;
  return { title: pageTitle, byline: undefined, publishedTime: undefined, markdown: tidy(turndown.turndown(body?.innerHTML ?? html)), extraction: 'page', ...size };
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

function createTurndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.remove(['script', 'style', 'noscript', 'iframe', 'template']);
  service.addRule('webImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as { getAttribute(name: string): string | null };
      const src = element.getAttribute('src') ?? '';
      if (!/^https?:\/\//i.test(src)) return '';
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      return `![${alt}](${src})`;
    },
  });
  return service;
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

function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
