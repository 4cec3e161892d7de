import { functionCallOutputs, lastUserText, reply, type FunctionCallSpec, type RecordedRequest, type ScriptStep, type StepReply } from '@core/testkit';

/** The folder (inside the agent home) the demo writes to. */
export const DEMO_FOLDER = 'ankole-demo';

type Status = 'pending' | 'in_progress' | 'completed';

const PLAN = ['Write the notes', 'Check them with the shell', 'Read them back', 'Report what is there'] as const;

function plan(done: number): FunctionCallSpec {
  const todos = PLAN.map((content, index) => ({
    content,
    status: (index < done ? 'completed' : index === done ? 'in_progress' : 'pending') satisfies Status,
  }));
  return { name: 'todo_write', callId: `call_plan_${done}`, arguments: { todos } };
}

function offeredTools(request: RecordedRequest): Set<string> {
  const tools: unknown = request.body?.tools;
  if (!Array.isArray(tools)) return new Set();
  return new Set(tools.flatMap((tool: { name?: unknown }) => (typeof tool.name === 'string' ? [tool.name] : [])));
}

/** Function calls, keeping only those whose tool the turn offers (the demo adapts to the tool set it gets). */
function callsFor(request: RecordedRequest, calls: FunctionCallSpec[], text?: string): StepReply {
  const offered = offeredTools(request);
  const kept = calls.filter((call) => offered.has(call.name));
  if (kept.length === 0) return reply.text(text ?? '(no tool for this step)');
  return reply.functionCalls(kept, text === undefined ? {} : { text });
}

function outputText(request: RecordedRequest, callId: string): string | undefined {
  const item = functionCallOutputs(request).find((output) => output.call_id === callId);
  if (item === undefined) return undefined;
  if (typeof item.output === 'string') return item.output;
  return item.output.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

function firstLines(text: string | undefined, count: number, after?: string): string {
  if (text === undefined) return '    (not run)';
  let lines = text.split('\n').filter((line) => line.trim() !== '');
  const start = after === undefined ? -1 : lines.findIndex((line) => line.trim().startsWith(after));
  if (start !== -1) lines = lines.slice(start + 1);
  return lines.slice(0, count).map((line) => `    ${line.replace(/^\s*\d+\t/, '').slice(0, 160)}`).join('\n');
}

function finalAnswer(request: RecordedRequest): StepReply {
  const offered = offeredTools(request);
  if (!offered.has('write_file')) {
    return reply.text(
      'This turn had no computer tools (command, read_file, write_file, …), so I could only keep the plan. ' +
        'Build @core/tools-computer and run the demo again to see files, the shell and a parallel batch at work.',
    );
  }
  const sections = [
    `Done. I wrote two notes in ${DEMO_FOLDER}/notes/ and checked them with real tools:`,
    `- \`wc -l -w\` through the command tool counted (lines, words):\n${firstLines(outputText(request, 'call_wc'), 2, 'stdout')}`,
    `- list_files found:\n${firstLines(outputText(request, 'call_list'), 4)}`,
    `- search_files for "TODO" found:\n${firstLines(outputText(request, 'call_search'), 2)}`,
    `- README.md, read back, records your request:\n${firstLines(outputText(request, 'call_read_readme'), 1, '2')}`,
    'The four reads ran as one parallel batch. My write_file call for ideas.md was sent malformed on purpose ' +
      '(inside a code fence, with a trailing comma); the runtime repaired the arguments before the tool ran, ' +
      'as its activity line shows.',
  ];
  return reply.text(sections.join('\n'));
}

/**
 * The offline demo model's script: each step is a function of the request, so it reacts to what the
 * real tools returned. It plans with todo_write, writes files (one call with malformed arguments that
 * the repair ladder fixes), runs `wc` and `ls` through `command`, reads in one parallel batch, and
 * composes its final answer from the tools' real outputs.
 */
export function demoScenario(): ScriptStep[] {
  const notes = `${DEMO_FOLDER}/notes`;
  return [
    (request) => callsFor(request, [plan(0)], 'I will plan this first, then write, check and read the notes.'),
    (request) => {
      const prompt = lastUserText(request) ?? '';
      const readme = `# Ankole notes\n\nAsked: ${prompt}\n\nTools are assembled per turn; if a tool is in the array it is available.\n`;
      const ideas = '# Ideas\n\n- Keep one tool set per turn\n- Repair malformed arguments\n- TODO: point the CLI at a real model\n';
      return callsFor(request, [
        { name: 'write_file', callId: 'call_write_readme', arguments: { path: `${notes}/README.md`, content: readme } },
        {
          name: 'write_file',
          callId: 'call_write_ideas',
          // Deliberately malformed: a code fence around the JSON and a trailing comma.
          arguments: `\`\`\`json\n{"path": ${JSON.stringify(`${notes}/ideas.md`)}, "content": ${JSON.stringify(ideas)},}\n\`\`\``,
        },
      ]);
    },
    (request) =>
      callsFor(request, [plan(1), { name: 'command', callId: 'call_wc', arguments: { command: `cd ${notes} && wc -l -w *.md && ls -l` } }]),
    (request) =>
      callsFor(request, [
        plan(2),
        { name: 'read_file', callId: 'call_read_readme', arguments: { path: `${notes}/README.md` } },
        { name: 'read_file', callId: 'call_read_ideas', arguments: { path: `${notes}/ideas.md` } },
        { name: 'list_files', callId: 'call_list', arguments: { pattern: '**/*.md', path: DEMO_FOLDER } },
        { name: 'search_files', callId: 'call_search', arguments: { regex: 'TODO', path: DEMO_FOLDER } },
      ]),
    (request) => callsFor(request, [plan(4)]),
    finalAnswer,
  ];
}
