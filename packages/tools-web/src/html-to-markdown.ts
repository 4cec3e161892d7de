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
}

/** Below this many characters of text, Readability's pick is not trusted and the whole body is converted. */
const MIN_ARTICLE_CHARACTERS = 200;

// Elements that never carry readable content, dropped in the whole-body fallback.
const NOISE_SELECTOR = 'script, style, noscript, template, iframe, svg, canvas, form, button, nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"]';

/**
 * Converts an HTML page to readable Markdown: Mozilla Readability picks the article on a linkedom
 * DOM (dropping navigation, ads and footers), Turndown writes it as Markdown; when Readability finds
 * no article the whole body, minus navigation and scripts, is converted instead. Relative links and
 * images are made absolute against `pageUrl`.
 */
export function htmlToMarkdown(source: string, pageUrl: string): HtmlMarkdown {
  const html = stripHeavyMarkup(source);
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
    };
  }
  // Readability changed the first DOM; convert a fresh one.
  const { document: fresh } = parseHTML(html);
  absolutiseLinks(fresh, pageUrl);
  for (const element of fresh.querySelectorAll(NOISE_SELECTOR)) element.remove();
  const body = fresh.body as { innerHTML?: string } | null;
  return { title: pageTitle, byline: undefined, publishedTime: undefined, markdown: tidy(turndown.turndown(body?.innerHTML ?? html)), extraction: 'page' };
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
