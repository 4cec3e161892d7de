/** The commands that list each kind of record, for a person who gave an id that is not there. */
const LISTED_BY: Record<string, string> = {
  'Brain page': '`ankole brain list` or `ankole brain search "…"` shows the pages',
  schedule: '`ankole schedules list --all` shows the ids',
  job: '`ankole jobs list` shows the ids',
  workflow: '`ankole workflows list` shows the ids',
  task: '`ankole workflows show <workflow>` shows its tasks',
  approval: '`ankole approvals list --status pending,approved,denied,cancelled` shows the ids',
};

const MODEL_NOT_FOUND = /^No (Brain page|schedule|job|workflow|task|approval) with (id or title|id) "([^"]*)" exists for this agent\. .*$/s;

/**
 * A control plane message reworded for a person at the command line: a not-found message written for the model
 * ("Use recall to find pages", "List your jobs") names the command that lists them and `--agent`. Other messages are
 * returned as they are.
 */
export function forPeople(message: string): string {
  const match = MODEL_NOT_FOUND.exec(message);
  if (match === null) return message;
  const [, kind, by, id] = match as unknown as [string, string, string, string];
  return `No ${kind} with ${by} "${id}" for this agent: ${LISTED_BY[kind] ?? 'the list command shows them'} (another agent's: pass --agent NAME).`;
}
