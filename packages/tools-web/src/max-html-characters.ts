/**
 * The default of `HtmlToMarkdownOptions.maxHtmlCharacters`: 512 Ki characters. Kept apart from the converter so
 * web_fetch can name it without loading the DOM parser, Readability and Turndown.
 */
export const DEFAULT_MAX_HTML_CHARACTERS = 512 * 1024;
