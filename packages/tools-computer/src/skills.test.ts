import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sandboxOrOptOut } from './__fixtures__/sandbox.js';
import { serverEverythingEntry } from './__fixtures__/mcp-servers.js';
import { callTool, tempDir, textOf, toolNamed } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';
import { loadSkills } from './load-skills.js';
import { projectSkills } from './project-skills.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/skills', import.meta.url));
let root: Awaited<ReturnType<typeof tempDir>>;
let home: string;

beforeEach(async () => {
  root = await tempDir();
  home = path.join(root.path, 'home');
  await mkdir(home);
});
afterEach(() => root.dispose());

async function writeSkill(name: string, frontMatter: string, body = 'Use it well.'): Promise<string> {
  const folder = path.join(root.path, 'skills', name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'SKILL.md'), `---\n${frontMatter}\n---\n\n${body}\n`);
  return folder;
}

describe('loadSkills', () => {
  test('loads valid skills and reports malformed ones without throwing', async () => {
    const { skills, problems } = await loadSkills([fixtures]);
    expect(skills.map((skill) => skill.name)).toEqual(['notes']);
    expect(skills[0]).toMatchObject({
      description: 'Keep meeting notes in notes/, one file per meeting, named by date.',
      folder: path.join(fixtures, 'notes'),
      mcpServers: {},
    });
    expect(skills[0]?.instructions).toMatch(/^# Notes\n/);
    const byFolder = Object.fromEntries(problems.map((problem) => [path.basename(path.dirname(problem.path)) === 'skills' ? path.basename(problem.path) : path.basename(path.dirname(problem.path)), problem.message]));
    expect(Object.keys(byFolder).sort()).toEqual(['bad-name', 'bad-server', 'bad-yaml', 'no-description', 'no-front-matter', 'not-a-skill']);
    expect(byFolder['no-front-matter']).toMatch(/must start with YAML front matter/);
    expect(byFolder['bad-yaml']).toMatch(/not valid YAML/);
    expect(byFolder['no-description']).toMatch(/needs a non-empty description/);
    expect(byFolder['bad-name']).toMatch(/needs a name matching/);
    expect(byFolder['bad-server']).toMatch(/mcpServers\.broken needs a command/);
    expect(byFolder['not-a-skill']).toMatch(/holds no SKILL\.md/);
  });

  test('a folder that is itself a skill, a duplicate name and a missing folder', async () => {
    const first = await writeSkill('one', 'name: same\ndescription: First.');
    const second = await writeSkill('two', 'name: same\ndescription: Second.');
    const { skills, problems } = await loadSkills([first, second, path.join(root.path, 'missing')]);
    expect(skills.map((skill) => skill.description)).toEqual(['First.']);
    expect(problems.map((problem) => problem.message)).toEqual([
      'Another skill is already named "same"; this one is skipped.',
      expect.stringMatching(/^The skills folder cannot be read/),
    ]);
  });
});

describe('projectSkills', () => {
  test('copies skills into the home and lists them with their SKILL.md path; read_file reads it', async () => {
    const { skills } = await loadSkills([path.join(fixtures, 'notes')]);
    const projection = await projectSkills(skills, { home });
    expect(projection.problems).toEqual([]);
    expect(projection.skills).toEqual([
      { name: 'notes', description: 'Keep meeting notes in notes/, one file per meeting, named by date.', skillFile: '.skills/notes/SKILL.md', mcpServers: [] },
    ]);
    expect(projection.instructions).toContain('- notes: Keep meeting notes in notes/, one file per meeting, named by date. (instructions: .skills/notes/SKILL.md)');
    expect(projection.instructions).not.toContain('mcporter');
    expect(projection.mcporterConfig).toBeUndefined();
    expect(existsSync(path.join(home, 'config'))).toBe(false);
    const read = toolNamed(createComputerTools({ home }), 'read_file');
    expect(textOf(await callTool(read, { path: '.skills/notes/SKILL.md' }))).toContain('# Notes');
    expect(existsSync(path.join(home, '.skills/notes/template.md'))).toBe(true);
  });

  test('projections running at the same time into one home (two turns of an agent) all get the skill, whole', async () => {
    const { skills } = await loadSkills([path.join(fixtures, 'notes')]);
    const projections = await Promise.all(Array.from({ length: 8 }, () => projectSkills(skills, { home })));
    for (const projection of projections) {
      expect(projection.problems).toEqual([]);
      expect(projection.skills.map((skill) => skill.name)).toEqual(['notes']);
    }
    expect(await readdir(path.join(home, '.skills'))).toEqual(['notes']);
    expect((await readdir(path.join(home, '.skills/notes'))).sort()).toEqual(['SKILL.md', 'template.md']);
  });

  test('removes copies of skills no longer active', async () => {
    const { skills } = await loadSkills([path.join(fixtures, 'notes')]);
    await projectSkills(skills, { home });
    const projection = await projectSkills([], { home });
    expect(projection.instructions).toBe('');
    expect(existsSync(path.join(home, '.skills/notes'))).toBe(false);
  });

  test('an MCP-backed skill writes its servers into the home mcporter config, merged, and the model can call them with mcporter', async () => {
    await mkdir(path.join(home, 'config'));
    await writeFile(path.join(home, 'config/mcporter.json'), JSON.stringify({ mcpServers: { mine: { command: 'my-server' } }, imports: ['cursor'] }));
    const folder = await writeSkill(
      'everything',
      [
        'name: everything',
        'description: Echo and add numbers with the everything MCP server.',
        'mcpServers:',
        '  everything:',
        '    command: node',
        `    args: [${JSON.stringify(serverEverythingEntry())}, stdio]`,
        '    env:',
        '      SKILL_HOME: ${SKILL_DIR}',
      ].join('\n'),
    );
    const { skills, problems } = await loadSkills([folder]);
    expect(problems).toEqual([]);
    const projection = await projectSkills(skills, { home });
    expect(projection.problems).toEqual([]);
    expect(projection.skills[0]?.mcpServers).toEqual(['everything']);
    expect(projection.instructions).toContain('`mcporter call <server>.<tool> key=value …`');
    const config = JSON.parse(await readFile(path.join(home, 'config/mcporter.json'), 'utf8'));
    expect(config).toEqual({
      mcpServers: {
        mine: { command: 'my-server' },
        everything: { command: 'node', args: [serverEverythingEntry(), 'stdio'], env: { SKILL_HOME: path.join(home, '.skills/everything') } },
      },
      imports: ['cursor'],
    });
    // mcporter through `command`, sandboxed where bubblewrap is installed (unsandboxed here, it tests the projection).
    const command = toolNamed(createComputerTools({ home, ...sandboxOrOptOut('skills.test.ts') }), 'command');
    const result = await callTool(command, { command: 'cd .skills && mcporter call everything.echo message=hi' });
    expect(textOf(result)).toContain('Echo: hi');

    // The skill goes away: its server leaves the config, the operator's entry stays.
    await projectSkills([], { home });
    const after = JSON.parse(await readFile(path.join(home, 'config/mcporter.json'), 'utf8'));
    expect(after.mcpServers).toEqual({ mine: { command: 'my-server' } });
  });

  test('a malformed mcporter config is reported and left alone', async () => {
    await mkdir(path.join(home, 'config'));
    await writeFile(path.join(home, 'config/mcporter.json'), '{ not json');
    const folder = await writeSkill('remote', 'name: remote\ndescription: Remote.\nmcpServers:\n  remote:\n    url: https://example.com/mcp');
    const projection = await projectSkills((await loadSkills([folder])).skills, { home });
    expect(projection.problems).toHaveLength(1);
    expect(projection.problems[0]?.message).toMatch(/not valid JSON/);
    expect(await readFile(path.join(home, 'config/mcporter.json'), 'utf8')).toBe('{ not json');
    expect(projection.skills[0]?.mcpServers).toEqual([]);
  });

  test('two skills declaring the same server: the first wins, the second is reported', async () => {
    const a = await writeSkill('a', 'name: a\ndescription: A.\nmcpServers:\n  shared:\n    url: https://a.example/mcp');
    const b = await writeSkill('b', 'name: b\ndescription: B.\nmcpServers:\n  shared:\n    url: https://b.example/mcp');
    const projection = await projectSkills((await loadSkills([a, b])).skills, { home });
    expect(projection.problems.map((problem) => problem.message)).toEqual(['MCP server "shared" is already declared by skill "a"; that definition is kept.']);
    const config = JSON.parse(await readFile(path.join(home, 'config/mcporter.json'), 'utf8'));
    expect(config).toEqual({ mcpServers: { shared: { url: 'https://a.example/mcp' } }, imports: [] });
  });

  test('links planted in the home never take a projection outside: .skills, an old copy, the config folder', async () => {
    const outside = path.join(root.path, 'outside');
    await mkdir(path.join(outside, 'kept'), { recursive: true });
    await writeFile(path.join(outside, 'kept', 'file.txt'), 'outside\n');
    await writeFile(path.join(outside, 'mcporter.json'), '{"mcpServers":{"theirs":{"command":"x"}}}');
    const before = (await readdir(outside, { recursive: true })).sort();
    // .skills is a link out: it is replaced by a folder of the home.
    await symlink(outside, path.join(home, '.skills'));
    const folder = await writeSkill('remote', 'name: remote\ndescription: Remote.\nmcpServers:\n  remote:\n    url: https://example.com/mcp');
    const { skills } = await loadSkills([folder]);
    // config is a link out: the servers are not written there, the problem is reported without the link's target.
    await symlink(outside, path.join(home, 'config'));
    const first = await projectSkills(skills, { home });
    expect((await lstat(path.join(home, '.skills'))).isDirectory()).toBe(true);
    expect(first.skills.map((skill) => skill.name)).toEqual(['remote']);
    expect(first.mcporterConfig).toBeUndefined();
    expect(first.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/could not be written: .*a symlink on the way leads out of the home/)]);
    expect(first.problems[0]?.message).not.toContain(outside);
    // An "inactive copy" that is a link out: the link is removed, not what it points to.
    await symlink(path.join(outside, 'kept'), path.join(home, '.skills', 'old'));
    await projectSkills([], { home });
    expect(existsSync(path.join(home, '.skills', 'old'))).toBe(false);
    expect((await readdir(outside, { recursive: true })).sort()).toEqual(before);
    expect(await readFile(path.join(outside, 'kept', 'file.txt'), 'utf8')).toBe('outside\n');
    expect(await readFile(path.join(outside, 'mcporter.json'), 'utf8')).toBe('{"mcpServers":{"theirs":{"command":"x"}}}');
  });
});
