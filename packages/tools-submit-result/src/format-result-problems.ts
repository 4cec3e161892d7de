import type { ResultSchemaProblem } from '@core/control-plane-client';

/**
 * The problems of a rejected result as lines the model reads, one per failing path (`- $.facts[2]: must be string`;
 * the root is shown as `$ (the whole result)`).
 */
export function formatResultProblems(problems: readonly ResultSchemaProblem[]): string {
  if (problems.length === 0) return '- $ (the whole result): does not match the schema';
  return problems.map((problem) => `- ${problem.path === '$' || problem.path === '' ? '$ (the whole result)' : problem.path}: ${problem.message}`).join('\n');
}
