/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (gen-ai spans, status "Development"), and the
 * `ankole.*` attributes for what those conventions have no name for.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  conversationId: 'gen_ai.conversation.id',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
} as const;

/** Attributes of ours, for what the GenAI conventions do not name. */
export const ANKOLE = {
  turnEndReason: 'ankole.turn.end_reason',
  turnSteps: 'ankole.turn.steps',
  turnTools: 'ankole.turn.tools',
  step: 'ankole.step',
  reasoningTokens: 'ankole.usage.reasoning_tokens',
  toolLabel: 'ankole.tool.label',
  toolNamespace: 'ankole.tool.namespace',
  toolExecutionMode: 'ankole.tool.execution_mode',
  toolReadOnly: 'ankole.tool.read_only',
  toolDestructive: 'ankole.tool.destructive',
  toolStatus: 'ankole.tool.status',
  toolRepairs: 'ankole.tool.repairs',
  approvalDecision: 'ankole.approval.decision',
  approvalReason: 'ankole.approval.reason',
  /** Who denied a call: `config`, `person` or `unattended` (no one could be asked). */
  approvalDeniedBy: 'ankole.approval.denied_by',
} as const;
