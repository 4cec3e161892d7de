export { defineWorkerTool, TOOL_NAME_PATTERN } from './define-worker-tool.js';
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
} from './worker-agent-tool.js';
export type { JSONObject, JSONPrimitive, JSONValue } from './json.js';
export { jsonPathChild } from './json.js';
export type { NeedsApproval } from './worker-agent-tool.js';
export { callNeedsApproval } from './approval-policy.js';
export type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, PendingCallDecision } from './approval-policy.js';
export { parseAgentRunState } from './run-state.js';
export type { AgentRunState, PendingApproval, StepSlot } from './run-state.js';

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

export { zodToJSONSchema } from './zod-to-json-schema.js';
export { findProtoKeyProperties, PROTO_KEY_PATTERN, withProtoKeyRules } from './proto-key-schema.js';
export { toolParameters } from './tool-parameters.js';
export type { ToolParameters } from './tool-parameters.js';
export { checkStrictSchema, toStrictJSONSchema, STRICT_KEYWORDS, STRICT_STRING_FORMATS } from './strict-json-schema.js';
export { stripSyntheticNulls } from './strip-synthetic-nulls.js';
export type { StrippedNulls } from './strip-synthetic-nulls.js';
export { collectToolSchemas } from './collect-tool-schemas.js';
export type { CollectToolSchemasOptions, ResponsesTool } from './collect-tool-schemas.js';
export { DEFAULT_TOOL_SEARCH_DESCRIPTION, toFunctionToolParam, toolSearchToolParam } from './collect-tool-schemas.js';
export type { FunctionToolParam, NamespaceToolParam, ToolSearchToolParam } from './collect-tool-schemas.js';
export { agentToolMap, toolKey } from './agent-tool-map.js';

export { validateToolArguments } from './validate-tool-arguments.js';
export type { ValidationResult } from './validate-tool-arguments.js';
export type { ArgumentRepair } from './argument-repair.js';

export { DEFAULT_MAX_CONCURRENCY, DEFAULT_TOOL_TIMEOUT_MS, dispatchToolCalls } from './dispatch-tool-calls.js';
export { declinedMessage } from './dispatch-tool-calls.js';
export type { CallGateAnswer, DispatchOptions, FunctionCallItem, FunctionCallOutputItem, ToolCallOutcome } from './dispatch-tool-calls.js';

export { DEFAULT_MAX_STEPS, runAgentLoop } from './run-agent-loop.js';
export { answerToolSearch, DEFAULT_TOOL_SEARCH_LIMIT } from './answer-tool-search.js';
export type { AnswerToolSearchOptions, ToolSearchAnswer, ToolSearchCallItem, ToolSearchOutputItem } from './answer-tool-search.js';
export type { AgentLoopOptions, AgentLoopResult } from './run-agent-loop.js';
export type { ActivityStatus, AgentEvent, AgentEventType, TokenUsage, TurnEndReason } from './agent-events.js';
export { boundEvent, DEFAULT_MAX_EVENT_STRING_CHARS } from './bound-event.js';
export type { BoundEvent } from './bound-event.js';
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
} from './model-gateway.js';
export { expandParallelWrapper, parallelWrapperOutput } from './expand-parallel-wrapper.js';
export type { ParallelWrapper } from './expand-parallel-wrapper.js';
export { unhandledCall } from './answer-unhandled-calls.js';
export type { UnhandledCall } from './answer-unhandled-calls.js';
export { outputText, replayableInput } from './to-input-items.js';
export { createOpenAIResponsesGateway } from './openai-responses-gateway.js';
export type { OpenAIResponsesGatewayOptions } from './openai-responses-gateway.js';
