export { defineWorkerTool, TOOL_NAME_PATTERN } from './tool/define-worker-tool.js';
export type {
  AgentToolResult,
  AnyWorkerAgentTool,
  ExecutionMode,
  JsonSchemaWorkerToolDefinition,
  PresentationEvent,
  ToolContent,
  ToolContentPart,
  ToolExecutionContext,
  ToolImagePart,
  ToolTextPart,
  WorkerAgentTool,
  ZodWorkerToolDefinition,
} from './tool/worker-agent-tool.js';
export type { JSONObject, JSONPrimitive, JSONValue } from './json.js';
export { jsonPathChild } from './json.js';
export type { NeedsApproval } from './tool/worker-agent-tool.js';
export { callNeedsApproval } from './dispatch/approval-policy.js';
export type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, PendingCallDecision } from './dispatch/approval-policy.js';
export { parseAgentRunState } from './loop/run-state.js';
export type { AgentRunState, PendingApproval, StepSlot } from './loop/run-state.js';

export {
  AnkoleError,
  ModelGatewayError,
  RuntimeFailure,
  SchemaConversionError,
  ToolAbortedError,
  ToolDefinitionError,
  ToolSetError,
  ToolTimeoutError,
  UsageError,
} from './errors.js';
export type { AnkoleErrorKind, AnkoleErrorOptions } from './errors.js';
export { StrictSchemaError } from './errors.js';
export type { SchemaConversionReason, StrictSchemaIssue } from './errors.js';

export { zodToJSONSchema } from './schema/zod-to-json-schema.js';
export { findProtoKeyProperties, PROTO_KEY_PATTERN, withProtoKeyRules } from './schema/proto-key-schema.js';
export { toolParameters } from './schema/tool-parameters.js';
export type { ToolParameters } from './schema/tool-parameters.js';
export { checkStrictSchema, toStrictJSONSchema, STRICT_KEYWORDS, STRICT_STRING_FORMATS } from './schema/strict-json-schema.js';
export { stripSyntheticNulls } from './schema/strip-synthetic-nulls.js';
export type { StrippedNulls } from './schema/strip-synthetic-nulls.js';
export { collectToolSchemas } from './schema/collect-tool-schemas.js';
export type { CollectToolSchemasOptions, ResponsesTool } from './schema/collect-tool-schemas.js';
export { DEFAULT_TOOL_SEARCH_DESCRIPTION, toFunctionToolParam, toolSearchToolParam } from './schema/collect-tool-schemas.js';
export type { FunctionToolParam, NamespaceToolParam, ToolSearchToolParam } from './schema/collect-tool-schemas.js';
export { agentToolMap, toolKey } from './tool/agent-tool-map.js';
export { activityLabel } from './tool/activity-label.js';
export { refusalToolResult } from './tool/refusal-tool-result.js';
export { blockedAddressReason } from './network/blocked-address-reason.js';

export { validateToolArguments } from './validation/validate-tool-arguments.js';
export type { ValidationResult } from './validation/validate-tool-arguments.js';
export type { ArgumentRepair } from './repair/argument-repair.js';
export { createBoundedRegExpEngine, PATTERN_TIME_LIMIT_MS } from './validation/bounded-regexp.js';
export type { BoundedRegExp, BoundedRegExpEngine } from './validation/bounded-regexp.js';
export { compileLinearPattern, createLinearRegExpEngine, MAX_LINEAR_PATTERN_CHARS, toLinearPattern } from './validation/linear-regexp.js';

export { DEFAULT_MAX_CONCURRENCY, DEFAULT_TOOL_TIMEOUT_MS, dispatchToolCalls } from './dispatch/dispatch-tool-calls.js';
export { callDenial, declinedMessage, DENIAL_SOURCES } from './dispatch/dispatch-tool-calls.js';
export type { CallDenial, DenialSource } from './dispatch/dispatch-tool-calls.js';
export type { CallGateAnswer, DispatchOptions, FunctionCallItem, FunctionCallOutputItem, ToolCallOutcome } from './dispatch/dispatch-tool-calls.js';

export { DEFAULT_MAX_STEPS, runAgentLoop } from './loop/run-agent-loop.js';
export { answerToolSearch, DEFAULT_TOOL_SEARCH_LIMIT } from './loop/answer-tool-search.js';
export type { AnswerToolSearchOptions, ToolSearchAnswer, ToolSearchCallItem, ToolSearchOutputItem } from './loop/answer-tool-search.js';
export type { AgentLoopOptions, AgentLoopResult } from './loop/run-agent-loop.js';
export type { ActivityStatus, AgentEvent, AgentEventType, TokenUsage, TurnEndReason } from './loop/agent-events.js';
export { boundEvent, DEFAULT_MAX_EVENT_STRING_CHARS } from './loop/bound-event.js';
export { createDeniedCallCounter } from './loop/denied-call-counter.js';
export type { DeniedCallCounter, DeniedCallCounts } from './loop/denied-call-counter.js';
export type { BoundEvent } from './loop/bound-event.js';
export type {
  MessagePhase,
  ModelCallOptions,
  ModelGateway,
  ModelRequest,
  ModelResponse,
  OutputItemSource,
  ResponseInputItem,
  ResponseOutputItem,
  TextDeltaSource,
} from './gateway/model-gateway.js';
export type { CompactedHistory, CompactRequest } from './gateway/model-gateway.js';
export { contextWindowOf, DEFAULT_COMPACTION_TARGET, DEFAULT_COMPACTION_THRESHOLD, DEFAULT_CONTEXT_WINDOW } from './context/context-window.js';
export type { ContextOptions } from './context/context-manager.js';
export { chainCompactors } from './context/context-compactor.js';
export type { CompactionRequest, CompactionResult, ContextCompactor } from './context/context-compactor.js';
export { serverCompactor } from './context/server-compactor.js';
export { localCompactor } from './context/local-compactor.js';
export type { LocalCompactorOptions } from './context/local-compactor.js';
export { summarizeWithModel } from './context/summarize-with-model.js';
export type { SummarizeWithModelOptions } from './context/summarize-with-model.js';
export { defaultCompactor } from './context/default-compactor.js';
export { ContextWindowError, isContextLengthExceeded } from './context/context-window-error.js';
export { estimateTokens } from './context/estimate-tokens.js';
export { recentTailStart } from './context/recent-tail.js';
export { expandParallelWrapper, parallelWrapperOutput } from './dispatch/expand-parallel-wrapper.js';
export type { ParallelWrapper } from './dispatch/expand-parallel-wrapper.js';
export { unhandledCall } from './loop/answer-unhandled-calls.js';
export type { UnhandledCall } from './loop/answer-unhandled-calls.js';
export { outputText, replayableInput } from './gateway/to-input-items.js';
export { createOpenAIResponsesGateway } from './gateway/openai-responses-gateway.js';
export type { OpenAIResponsesGatewayOptions } from './gateway/openai-responses-gateway.js';
