import type { ResponseInputItem } from '@core/runtime';
import { oneLine, printableText } from '../../render/display-text.js';
import { plural } from '../../render/format.js';
import { describeTime } from '../../render/relative-time.js';
import { AGENT_NAME_PATTERN } from '../agent-home.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { createConversationStore, type Conversation } from '../conversation-store.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { parseCommandLine, positiveInteger, stringValue } from '../parse-command-line.js';

const OPTIONS = {
  agent: { type: 'string' },
  limit: { type: 'string' },
  transcript: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole conversations [list]         the agent\'s conversations (ankole run), most recent first',
  '       ankole conversations show <id>      one conversation: each prompt, the tool calls and the answers',
  '       ankole conversations show <id> --transcript',
  '                                           each turn drawn as it ran (as ankole run draws a live turn)',
  '',
  'Go on with one: ankole run --continue "<prompt>" (the last one) or ankole run --resume <id> "<prompt>".',
  'Ids: the whole id or a unique prefix (4 characters or more).',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --limit N          most conversations to list (default 20)',
  '  --transcript       with show: the turns\' transcripts',
  '  --json             print JSON (show: the conversation with its items; with --transcript, the transcripts)',
  '  -h, --help         show this help',
  '',
  'Conversations are kept in $XDG_DATA_HOME/ankole/agent-data/<agent>/conversations, outside the agent\'s home.',
  '',
].join('\n');

/** `ankole conversations`: list and show the conversations `ankole run` keeps per agent. */
export const conversationsCommand: CliCommand = {
  name: 'conversations',
  summary: 'list or show the conversations of ankole run (go on with one: ankole run --continue / --resume ID)',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('conversations', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (action !== 'list' && action !== 'show') {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole conversations\`: use list or show (see \`ankole conversations --help\`).`);
    }
    const agent = stringValue(values, 'agent') ?? 'default';
    if (!AGENT_NAME_PATTERN.test(agent)) throw new CliError('agent_invalid', `The agent name "${agent}" is not valid: use letters, digits, "_" and "-" (1 to 64 characters).`);
    if (values.transcript === true && action !== 'show') throw new CliError('option_invalid', '--transcript goes with show: ankole conversations show <id> --transcript.');
    const store = createConversationStore({ agent, env: io.env });
    const json = values.json === true;
    if (action === 'list') {
      const limit = positiveInteger(values, 'limit', 'conversations') ?? 20;
      const conversations = (await store.list()).slice(0, limit);
      if (json) {
        io.stdout.write(`${JSON.stringify(conversations.map(({ items: _items, pendingItems: _pending, ...summary }) => summary))}\n`);
      } else if (conversations.length === 0) {
        io.stdout.write(`No conversations for agent ${agent} yet: ankole run "<prompt>" starts one.\n`);
      } else {
        const rows = conversations.map((conversation) => [conversation.id, describeTime(conversation.updatedAt), String(conversation.turns.length), shortHome(conversation.home, io.env.HOME), oneLine(conversation.title, 60)]);
        io.stdout.write(`${table(['ID', 'UPDATED', 'TURNS', 'HOME', 'TITLE'], rows)}\n`);
      }
      return EXIT_CODES.ok;
    }
    if (rest.length !== 1) throw new CliError('arguments_invalid', 'Give one conversation id: ankole conversations show <id>.');
    const id = await resolveIdPrefix({ given: rest[0]!, kind: 'conversation', candidates: async () => (await store.list()).map((conversation) => conversation.id) });
    const conversation = await store.load(id);
    if (values.transcript === true) {
      const transcripts = await store.transcripts(id);
      if (json) io.stdout.write(`${JSON.stringify(transcripts)}\n`);
      else {
        const { drawTranscript } = await import('../../render/draw-transcript.js');
        drawTranscript({ attempts: transcripts, what: `conversation ${id}`, io, label: (attempt) => `turn ${(attempt as { turn?: number }).turn ?? '?'}` });
      }
      return EXIT_CODES.ok;
    }
    io.stdout.write(json ? `${JSON.stringify(conversation)}\n` : describeConversation(conversation));
    return EXIT_CODES.ok;
  },
};

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]?.length ?? 0)));
  return [header, ...rows].map((cells) => cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** A conversation for people: a heading, then each turn's prompt, tool calls (with their outputs' first line) and answer. */
function describeConversation(conversation: Conversation): string {
  const lines = [
    `Conversation ${conversation.id}`,
    `  agent:    ${conversation.agent} (home ${conversation.home})`,
    `  turns:    ${conversation.turns.length}`,
    `  started:  ${describeTime(conversation.createdAt)}`,
    `  updated:  ${describeTime(conversation.updatedAt)}`,
  ];
  let userMessages = 0;
  const endTurn = (index: number) => {
    const turn = conversation.turns[index];
    if (turn === undefined) return;
    const failed = turn.reason !== 'completed' && turn.reason !== 'terminated';
    lines.push(`  ${failed ? '✗' : '·'} turn ${turn.number}: ${turn.reason}${turn.error === undefined ? '' : ` (${oneLine(turn.error, 200)})`} · ${plural(turn.steps, 'step')} · ${plural(turn.toolCalls, 'tool call')} · ${turn.mode}`);
  };
  for (const item of conversation.items as Array<ResponseInputItem & Record<string, unknown>>) {
    if (item.type === 'message' || (item.type === undefined && 'role' in item)) {
      const text = messageText(item.content);
      if (item.role === 'user') {
        if (userMessages > 0) endTurn(userMessages - 1);
        userMessages += 1;
        lines.push('', ...printableText(text).split('\n').map((line, index) => `${index === 0 ? '›' : ' '} ${line}`));
      } else if (text !== '') {
        lines.push('', ...printableText(text).split('\n'));
      }
    } else if (item.type === 'function_call') {
      const name = typeof item.namespace === 'string' && item.namespace !== '' ? `${item.namespace}.${String(item.name)}` : String(item.name);
      lines.push(`  ⚙ ${name} ${oneLine(String(item.arguments ?? ''), 160)}`);
    } else if (item.type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : messageText(item.output);
      lines.push(`    → ${oneLine(output.split('\n')[0] ?? '', 160)}${output.includes('\n') ? ' …' : ''}`);
    }
  }
  if (userMessages > 0) endTurn(userMessages - 1);
  return `${lines.join('\n')}\n`;
}

/** The text of a message's content: a string, or its text parts joined (an image is `[image]`). */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) => (typeof part.text === 'string' ? part.text : part.type === 'input_image' ? '[image]' : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** A home as the list shows it: under the user's home folder as `~/…`. */
function shortHome(home: string, userHome: string | undefined): string {
  if (userHome === undefined || userHome === '' || userHome === '/') return home;
  const root = userHome.replace(/\/+$/, '');
  return home === root ? '~' : home.startsWith(`${root}/`) ? `~${home.slice(root.length)}` : home;
}
