import type { JobRecord } from '@core/control-plane-client';

/** A job as the lines the model reads: id, title, status, times, and its answer or error. */
export function formatJob(job: JobRecord, options: { full?: boolean } = {}): string {
  const lines = [`- id: ${job.id}`, `  title: ${job.title}`, `  status: ${job.status}`];
  if (job.kind === 'scheduled') lines.push(`  started by schedule: ${job.scheduleId} (its run at ${job.fireAt})`);
  lines.push(`  created: ${job.createdAt}`);
  if (job.startedAt !== null) lines.push(`  started: ${job.startedAt}`);
  if (job.finishedAt !== null) lines.push(`  finished: ${job.finishedAt}`);
  if (job.attempts > 1) lines.push(`  attempts: ${job.attempts}`);
  if (job.error !== null) lines.push(`  error: ${job.error}`);
  if (job.finalAnswer !== null) {
    const answer = options.full === true ? job.finalAnswer : preview(job.finalAnswer);
    lines.push(`  final answer: ${answer}`);
  }
  if (options.full === true) lines.push(`  prompt: ${job.prompt}`);
  return lines.join('\n');
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}… (get_background_job shows all of it)` : flat;
}
