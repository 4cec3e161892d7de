/**
 * The workflow of the workflows issue, for tests: research each `input.topics` entry in parallel (tasks titled
 * `Research <topic>`, each submitting `{ facts: string[] }`), log `collected <n> notes`, then one dependent task
 * `Summarise` (submitting `{ text }`); returns `{ summary, count }`.
 */
export const EXAMPLE_WORKFLOW_SCRIPT = `const topics = input.topics;                       // the workflow's JSON input
const notes = await Promise.all(topics.map((t) => task({
  title: \`Research \${t}\`,
  prompt: \`Find the three most cited facts about \${t}.\`,
  result: { type: 'object', additionalProperties: false, required: ['facts'],
            properties: { facts: { type: 'array', items: { type: 'string' } } } },
})));
log(\`collected \${notes.length} notes\`);
const summary = await task({ title: 'Summarise', prompt: JSON.stringify(notes), result: {
  type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } });
return { summary: summary.text, count: notes.length };
`;
