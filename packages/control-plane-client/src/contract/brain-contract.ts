import { describe, expect, it } from 'vitest';
import { ControlPlaneInputError, ControlPlaneNotFoundError } from '../index.js';
import type { ContractPlanes } from './contract-plane.js';

/** Brain pages: create, read, rename, rewrite, delete, recall, import; each agent's pages its own. */
export function describeBrainContract(planes: ContractPlanes): void {
  describe('Brain pages', () => {
    it('creates, reads (by id or title, any case), renames, rewrites and deletes a page', async () => {
      const { client } = await planes.open();
      const created = await client.brain.createPage({ agentId: 'a', title: 'Tide pools', body: '# Tide pools\n\nAnemones close when the water leaves.' });
      expect(created).toMatchObject({ agentId: 'a', title: 'Tide pools', size: 51 });

      expect(await client.brain.getPage({ agentId: 'a', page: created.id })).toMatchObject({ title: 'Tide pools', offset: 0, nextOffset: null, size: 51 });
      expect((await client.brain.getPage({ agentId: 'a', page: 'TIDE POOLS' })).text).toBe(created.body);

      await expect(client.brain.createPage({ agentId: 'a', title: 'tide POOLS', body: 'x' })).rejects.toMatchObject({ code: 'page_title_taken' });
      await client.brain.createPage({ agentId: 'a', title: 'Kelp', body: 'Kelp grows fast.' });
      await expect(client.brain.updatePage({ agentId: 'a', page: 'kelp', title: 'Tide Pools' })).rejects.toMatchObject({ code: 'page_title_taken' });

      const renamed = await client.brain.updatePage({ agentId: 'a', page: 'tide pools', title: 'Rock pools' });
      expect(renamed).toMatchObject({ id: created.id, title: 'Rock pools', body: created.body });
      const rewritten = await client.brain.updatePage({ agentId: 'a', page: created.id, body: 'Barnacles filter plankton.' });
      expect(rewritten).toMatchObject({ title: 'Rock pools', body: 'Barnacles filter plankton.', size: 26 });
      expect((await client.brain.recall({ agentId: 'a', query: 'barnacle' })).hits.map((hit) => hit.title)).toEqual(['Rock pools']);
      expect((await client.brain.recall({ agentId: 'a', query: 'anemones' })).hits).toEqual([]);

      expect(await client.brain.deletePage({ agentId: 'a', page: 'ROCK POOLS' })).toMatchObject({ id: created.id, title: 'Rock pools' });
      await expect(client.brain.getPage({ agentId: 'a', page: created.id })).rejects.toBeInstanceOf(ControlPlaneNotFoundError);
      expect(await client.brain.listPages({ agentId: 'a' })).toMatchObject({ total: 1, pages: [{ title: 'Kelp', size: 16 }] });
    });

    it("keeps agents apart: another agent's page is not found, not listed and not recalled, and may reuse the title", async () => {
      const { client } = await planes.open();
      const page = await client.brain.createPage({ agentId: 'a', title: 'Secret recipe', body: 'Two spoons of saffron.' });
      for (const reference of [page.id, 'Secret recipe']) {
        await expect(client.brain.getPage({ agentId: 'b', page: reference })).rejects.toMatchObject({ code: 'page_not_found' });
        await expect(client.brain.updatePage({ agentId: 'b', page: reference, body: 'x' })).rejects.toMatchObject({ code: 'page_not_found' });
        await expect(client.brain.deletePage({ agentId: 'b', page: reference })).rejects.toMatchObject({ code: 'page_not_found' });
      }
      expect((await client.brain.recall({ agentId: 'b', query: 'saffron' })).hits).toEqual([]);
      expect(await client.brain.listPages({ agentId: 'b' })).toEqual({ pages: [], total: 0 });
      await client.brain.createPage({ agentId: 'b', title: 'Secret recipe', body: 'Mine.' });
      expect((await client.brain.getPage({ agentId: 'a', page: 'secret recipe' })).text).toBe('Two spoons of saffron.');
    });

    it('reads a long page in windows that end at line breaks, with the total size and the next offset', async () => {
      const { client } = await planes.open();
      const lines = Array.from({ length: 400 }, (_, index) => `Line ${String(index).padStart(3, '0')}: the quick brown fox ✓`);
      const body = lines.join('\n');
      await client.brain.createPage({ agentId: 'a', title: 'Long', body });
      const size = Array.from(body).length;
      let offset: number | null = 0;
      let text = '';
      let windows = 0;
      while (offset !== null) {
        const slice = await client.brain.getPage({ agentId: 'a', page: 'Long', offset, limit: 1000 });
        expect(slice.size).toBe(size);
        if (slice.nextOffset !== null) expect(slice.text.endsWith('\n')).toBe(true);
        text += slice.text;
        offset = slice.nextOffset;
        windows += 1;
      }
      expect(text).toBe(body);
      expect(windows).toBeGreaterThan(size / 1000);
      await expect(client.brain.getPage({ agentId: 'a', page: 'Long', offset: size })).rejects.toMatchObject({ code: 'offset_out_of_range' });
    });

    it('recalls by full text: every word first, then any word, with highlighted snippets; prefixes and substrings as fallbacks', async () => {
      const { client } = await planes.open();
      await client.brain.importPages({
        agentId: 'a',
        pages: [
          { title: 'Sourdough starter', body: 'Feed the starter flour and water every day. A hungry starter smells of acetone.' },
          { title: 'Bread flour', body: 'Strong flour has more protein, which builds gluten for a chewy crumb.' },
          { title: 'Kubernetes rollouts', body: 'A deployment rolls pods out gradually; kubectl rollout undo goes back.' },
          { title: 'Error codes', body: 'The exporter prints =>> when the disk is full.' },
        ],
      });
      const both = await client.brain.recall({ agentId: 'a', query: 'feeding the starter flour' });
      expect(both.mode).toBe('all-words');
      expect(both.hits.map((hit) => hit.title)).toEqual(['Sourdough starter', 'Bread flour']);
      expect(both.hits[0]!.snippet).toContain('**Feed** the **starter** **flour**');

      const any = await client.brain.recall({ agentId: 'a', query: 'gluten protein for my starter' });
      expect(any.mode).toBe('any-word');
      expect(any.hits.map((hit) => hit.title)).toEqual(['Bread flour', 'Sourdough starter']);

      expect(await client.brain.recall({ agentId: 'a', query: '"chewy crumb" -sourdough' })).toMatchObject({ mode: 'all-words', hits: [{ title: 'Bread flour' }] });
      expect(await client.brain.recall({ agentId: 'a', query: 'kube' })).toMatchObject({ mode: 'prefix', hits: [{ title: 'Kubernetes rollouts' }] });
      const substring = await client.brain.recall({ agentId: 'a', query: '=>>' });
      expect(substring).toMatchObject({ mode: 'substring', hits: [{ title: 'Error codes' }] });
      expect(substring.hits[0]!.snippet).toContain('prints **=>>** when');
      expect((await client.brain.recall({ agentId: 'a', query: 'the of and' })).hits).toEqual([]);
      expect((await client.brain.recall({ agentId: 'a', query: 'flour', limit: 1 })).hits).toHaveLength(1);
    });

    it('imports pages as upserts by title: created, updated, unchanged, the last of a repeated title wins', async () => {
      const { client } = await planes.open();
      expect(await client.brain.importPages({ agentId: 'a', pages: [{ title: 'One', body: '1' }, { title: 'Two', body: '2' }, { title: 'one', body: 'uno' }] })).toEqual({
        created: 2,
        updated: 0,
        unchanged: 0,
      });
      expect((await client.brain.getPage({ agentId: 'a', page: 'ONE' })).text).toBe('uno');
      expect(await client.brain.importPages({ agentId: 'a', pages: [{ title: 'one', body: 'uno' }, { title: 'Two', body: 'dos' }, { title: 'Three', body: '3' }] })).toEqual({
        created: 1,
        updated: 1,
        unchanged: 1,
      });
      expect((await client.brain.listPages({ agentId: 'a', limit: 2, offset: 1 })).pages.map((page) => page.title)).toEqual(['Three', 'Two']);
    });

    it('refuses malformed input before touching the database', async () => {
      const { client } = await planes.open();
      const refusals = [
        client.brain.createPage({ agentId: 'a', title: '', body: 'x' }),
        client.brain.createPage({ agentId: 'a', title: 'x'.repeat(201), body: 'x' }),
        client.brain.createPage({ agentId: 'a', title: 'two\nlines', body: 'x' }),
        client.brain.createPage({ agentId: 'a', title: 'big', body: 'x'.repeat(200_001) }),
        client.brain.createPage({ agentId: 'a', title: 'nul', body: 'a\u0000b' }),
        client.brain.updatePage({ agentId: 'a', page: 'x' }),
        client.brain.getPage({ agentId: 'a', page: 'x', offset: -1 }),
        client.brain.recall({ agentId: 'a', query: '   ' }),
        client.brain.recall({ agentId: 'a', query: 'x', limit: 0 }),
        client.brain.importPages({ agentId: 'a', pages: Array.from({ length: 1001 }, (_, index) => ({ title: `p${index}`, body: '' })) }),
        client.brain.listPages({ agentId: '' }),
      ];
      for (const refusal of refusals) await expect(refusal).rejects.toMatchObject({ code: 'input_invalid' });
      await expect(refusals[0]).rejects.toBeInstanceOf(ControlPlaneInputError);
      expect((await client.brain.listPages({ agentId: 'a' })).total).toBe(0);
    });
  });
}
