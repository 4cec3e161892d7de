import { h, pre } from '../dom.js';
import { describeTime } from '../format.js';

/** Brain: search (recall) or the list of pages. */
export const brainView = {
  title: () => 'Brain',
  live: false,
  async load(ctx) {
    const query = ctx.query.get('q') ?? '';
    if (query.trim() !== '') return { query, recall: await ctx.rpc('brain.recall', { agentId: ctx.agentId, query, limit: 20 }) };
    return { query, list: await ctx.rpc('brain.listPages', { agentId: ctx.agentId, limit: 200 }) };
  },
  render({ query, recall, list }, ctx) {
    const form = h(
      'form',
      {
        role: 'search',
        class: 'filters',
        onsubmit: (event) => {
          event.preventDefault();
          const words = new FormData(event.target).get('q');
          location.hash = words ? `#/brain?q=${encodeURIComponent(words)}` : '#/brain';
        },
      },
      h('label', { for: 'brain-query' }, 'Search'),
      h('input', { id: 'brain-query', name: 'q', type: 'search', value: query }),
      h('button', { type: 'submit' }, 'Search'),
    );
    const link = (page) => h('a', { href: `#/brain/${encodeURIComponent(page.id)}` }, page.title);
    const body =
      recall !== undefined
        ? recall.hits.length === 0
          ? h('p', { class: 'muted' }, 'Nothing found.')
          : h('ol', { class: 'hits', 'aria-label': 'Search results' }, recall.hits.map((hit) => h('li', {}, link(hit), h('p', { class: 'snippet' }, snippet(hit.snippet)))))
        : list.pages.length === 0
          ? h('p', { class: 'muted' }, 'No pages.')
          : h('ul', { class: 'pages', 'aria-label': 'Pages' }, list.pages.map((page) => h('li', {}, link(page), h('span', { class: 'muted' }, ` · ${page.size} characters · ${describeTime(page.updatedAt)}`))));
    return h('div', {}, h('h1', {}, 'Brain ', h('span', { class: 'muted' }, `of agent ${ctx.agentId}`)), form, body);
  },
};

/** One page of the Brain, as Markdown text. */
export const brainPageView = {
  title: (page) => page?.title ?? 'Page',
  live: false,
  load: (ctx) => ctx.rpc('brain.getPage', { agentId: ctx.agentId, page: ctx.params.page, limit: 50_000 }),
  render(page) {
    return h(
      'article',
      {},
      h('p', {}, h('a', { href: '#/brain' }, '← Brain')),
      h('h1', {}, page.title),
      h('p', { class: 'muted' }, `${page.size} characters · updated ${describeTime(page.updatedAt)}`),
      pre(page.text, 'page'),
      page.nextOffset === null ? null : h('p', { class: 'muted' }, `The page goes on past ${page.nextOffset} characters.`),
    );
  },
};

/** A recall snippet: the matches (between `**`) in bold. */
function snippet(text) {
  return text.split('**').map((part, index) => (index % 2 === 1 ? h('mark', {}, part) : part));
}
